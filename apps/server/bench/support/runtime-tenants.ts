/**
 * What the runtime benches of many callers share (runtime-sessions, runtime-studio, runtime-fairness): the built
 * `platform-server start` in a process of its own on a backend (PGlite, or PostgreSQL with TEST_DATABASE_URL),
 * holding a data file of tenants with many users each, its own development issuer minting every user a token of
 * its own (as `platform-server token` does), connectors published through the environment API, calls made through
 * the public HTTP routes only, and the server process's resident memory read from /proc.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { importDataFile } from '@platform/store';
import type { TestBackend } from '@platform/store/testing';
import { serversIssuer } from '../../src/commands/token.ts';
import { loadConfig } from '../../src/config.ts';
import type { Figure } from '../figure.ts';
import { startBenchServer } from './server.ts';

/** One subscription of the bench: its environment (technical name `<name>-prod`), an owner and `users` members. */
export type Tenant = { name: string; users: number };

const guid = (kind: number, n: number) =>
  `0b000000-0000-4000-8000-${kind.toString(16).padStart(4, '0')}${n.toString(16).padStart(8, '0')}`;

export const ownerOf = (tenant: string) => `bench|${tenant}-owner`;
export const userOf = (tenant: string, n: number) => `bench|${tenant}-${String(n).padStart(4, '0')}`;
export const environmentOf = (tenant: string) => `${tenant}-prod`;

/** The data file (docs/data-file.md): each tenant an active subscription with one environment, its owner and users. */
export const tenantsDataFile = (tenants: readonly Tenant[]) => {
  const users: { id: string; email: string; status: 'Active' }[] = [];
  const subscriptions = tenants.map((tenant, t) => {
    const environmentGuid = guid(1, t);
    const ids = [
      ownerOf(tenant.name),
      ...Array.from({ length: tenant.users }, (_, n) => userOf(tenant.name, n)),
    ];
    for (const id of ids)
      users.push({ id, email: `${id.split('|')[1]}@${tenant.name}.example`, status: 'Active' });
    return {
      id: 900 + t,
      guid: guid(2, t),
      name: tenant.name,
      clientId: guid(3, t),
      status: 'Active',
      subscriptionType: 'Saas',
      pricebookVersion: '2025.1',
      subscriptionTier: 'Enterprise',
      isStudioEnabled: true,
      environments: [
        {
          id: 9000 + t,
          guid: environmentGuid,
          name: `${tenant.name} production`,
          technicalName: environmentOf(tenant.name),
          type: 'Production',
        },
      ],
      members: [
        { userId: ownerOf(tenant.name), subscriptionRoles: ['SubscriptionOwner'] },
        ...ids.slice(1).map((userId) => ({
          userId,
          environmentRoles: { [environmentGuid]: ['ContentUser'] },
        })),
      ],
    };
  });
  return { users, subscriptions };
};

export type RuntimeBenchServer = {
  url: string;
  pid: number;
  /** A token of the server's development issuer, verified by the server as any other. */
  mint(sub: string, roles?: readonly string[]): Promise<string>;
  /** Publishes a connector in the tenant's environment as its owner; answers its id. */
  publish(tenant: string, connector: Record<string, unknown>): Promise<string>;
  /** `/grafx/api/v1/environment/<tenant>-prod/connectors/<id>`. */
  connectorUrl(tenant: string, id: string): string;
  stop(): Promise<void>;
};

/**
 * A fresh database of `backend` holding `tenants`, and the built server started on it with `env` laid over the
 * bench's defaults (no rate limit: one machine sends every user's calls; loopback upstreams allowed).
 */
export const startRuntimeBenchServer = async (
  backend: TestBackend,
  tenants: readonly Tenant[],
  env: Record<string, string> = {},
): Promise<RuntimeBenchServer> => {
  const database = await backend.fresh();
  await importDataFile(database, tenantsDataFile(tenants));
  await database.detach();
  const serverEnv = {
    DATA_DIR: database.dataDir,
    DEMO_DATA: 'false',
    RATE_LIMIT_PER_SECOND: '1000000000',
    PROXY_ALLOW_PRIVATE_NETWORKS: 'true',
    LOG_LEVEL: 'info',
    ...(database.databaseUrl
      ? {
          DATABASE_URL: database.databaseUrl,
          SECRETS_KEY: Buffer.alloc(32, 7).toString('base64'),
          // On PostgreSQL the development issuer starts only when asked for by name.
          DEV_ISSUER: 'true',
        }
      : {}),
    ...env,
  };
  const server = await startBenchServer(serverEnv);
  try {
    const config = loadConfig({ ...serverEnv, PORT: '0', HOST: '127.0.0.1' });
    const issuer = await serversIssuer(config, server.url);
    const mint = (sub: string, roles: readonly string[] = ['platform:read']) =>
      issuer.mint({ sub, roles, ttlSeconds: 3600 });
    const owners = new Map<string, string>();
    const connectorsOf = (tenant: string) =>
      `${server.url}/grafx/api/v1/environment/${environmentOf(tenant)}/connectors`;
    return {
      url: server.url,
      pid: server.pid,
      mint,
      async publish(tenant, connector) {
        let owner = owners.get(tenant);
        if (!owner) {
          owner = await mint(ownerOf(tenant), ['platform:read', 'platform:write']);
          owners.set(tenant, owner);
        }
        const reply = await fetch(connectorsOf(tenant), {
          method: 'POST',
          headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
          body: JSON.stringify({ version: '1.0.0', allowedDomains: ['127.0.0.1'], ...connector }),
        });
        if (reply.status !== 201) throw new Error(`publish: ${reply.status} ${await reply.text()}`);
        return String(((await reply.json()) as { id: string }).id);
      },
      connectorUrl: (tenant, id) => `${connectorsOf(tenant)}/${id}`,
      async stop() {
        await server.stop();
        await database.close();
      },
    };
  } catch (error) {
    await server.stop();
    await database.close();
    throw error;
  }
};

/** A POST of JSON with a bearer token; the answer's body read whole, so its time is the user's. */
export const postJson = async (url: string, token: string, body: unknown) => {
  const reply = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const bytes = await reply.arrayBuffer();
  return { status: reply.status, bytes, headers: reply.headers };
};

/** How an answer other than 200 reads in a figure's label: its status and ProblemDetails `code` (`503 RUNTIME_BUSY`). */
export const outcomeOf = (status: number, bytes: ArrayBuffer): string => {
  if (status === 200) return '200';
  try {
    const { code } = JSON.parse(new TextDecoder().decode(bytes)) as { code?: unknown };
    return typeof code === 'string' ? `${status} ${code}` : String(status);
  } catch {
    return String(status);
  }
};

/** Counts of answers other than 200 by outcome, as a label's tail: ` (3× 503 RUNTIME_BUSY, 1× 504 TIME_LIMIT)`. */
export class Outcomes {
  readonly #counts = new Map<string, number>();
  add(outcome: string): void {
    if (outcome !== '200') this.#counts.set(outcome, (this.#counts.get(outcome) ?? 0) + 1);
  }
  get failures(): number {
    return [...this.#counts.values()].reduce((a, b) => a + b, 0);
  }
  count(outcome: string): number {
    return this.#counts.get(outcome) ?? 0;
  }
  /** Forgets what warm-up calls counted. */
  reset(): void {
    this.#counts.clear();
  }
  describe(): string {
    return this.failures === 0 ? '' : ` (${[...this.#counts].map(([o, n]) => `${n}× ${o}`).join(', ')})`;
  }
}

/** A process's resident memory now and at its peak so far (VmRSS, VmHWM of /proc/<pid>/status), in bytes. */
export const residentMemory = async (pid: number): Promise<{ now: number; peak: number }> => {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { now: kib('VmRSS') * 1024, peak: kib('VmHWM') * 1024 };
};

export const MiB = 1024 * 1024;
export const round = (value: number) => Math.round(value * 100) / 100;

/** The machine's load at the start and the end: a shared machine's figures are read beside it. */
export const loadNote = (atStart: number): string =>
  `Load average ${atStart.toFixed(1)} at the start, ${loadavg()[0]!.toFixed(1)} at the end.`;

/** bench/results/<name>.json with the time of the run and its notes (bench/report.ts prints them). */
export const writeRuntimeResults = async (name: string, figures: Figure[], notes: string[]) => {
  const out = fileURLToPath(new URL('../../../../bench/results/', import.meta.url));
  await mkdir(out, { recursive: true });
  const at = new Date().toISOString();
  await writeFile(`${out}${name}.json`, `${JSON.stringify({ name, at, notes, figures }, null, 2)}\n`);
  console.info(`written: bench/results/${name}.json`);
};
