/**
 * Replicas on one PostgreSQL (docs/deployment.md): three `platform-server` processes started together with
 * DEMO_DATA=true and the development issuer, then Debian's nginx, configured with the block docs/deployment.md
 * shows, in front of two of them, while one shuts down under traffic. Skipped without PostgreSQL
 * (TEST_DATABASE_URL) or without /usr/sbin/nginx.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestDatabase, testBackends } from '@platform/store/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './support/free-port.ts';
import { type ServerChild, startServerChild } from './support/server-child.ts';

const NGINX = '/usr/sbin/nginx';
const postgres = (await testBackends()).find((b) => b.name === 'postgres');
if (!postgres) console.info('[load-balancer] skipped: no PostgreSQL (set TEST_DATABASE_URL)');
if (!existsSync(NGINX)) console.info(`[load-balancer] nginx part skipped: ${NGINX} is not installed`);

/** The nginx block of docs/deployment.md, pointed at `upstreams` and listening on `port`. */
const documentedNginx = async (upstreams: string[], port: number): Promise<string> => {
  const doc = await readFile(new URL('../../../docs/deployment.md', import.meta.url), 'utf8');
  const block = /```nginx\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error('docs/deployment.md has no nginx block');
  let servers = 0;
  const pointed = block.replace(/^(\s*)server \d+\.\d+\.\d+\.\d+:\d+/gm, (_line, indent: string) => {
    const upstream = upstreams[servers++];
    return `${indent}server ${upstream}`;
  });
  expect(servers).toBe(upstreams.length);
  return pointed.replace(/listen 80;/, `listen 127.0.0.1:${port};`);
};

describe.skipIf(!postgres)('replicas on one PostgreSQL', () => {
  let database: TestDatabase;
  let replicas: ServerChild[] = [];
  const folders: string[] = [];
  let publicUrl: string;
  let lbPort: number;

  beforeAll(async () => {
    database = await postgres!.fresh({ migrated: false });
    await database.detach();
    lbPort = await freePort();
    publicUrl = `http://127.0.0.1:${lbPort}`;
    replicas = await Promise.all(
      [0, 1, 2].map(async () => {
        const dataDir = await mkdtemp(join(tmpdir(), 'replica-'));
        folders.push(dataDir);
        return startServerChild({
          dataDir,
          databaseUrl: database.databaseUrl,
          issuerUrl: '',
          port: await freePort(),
          env: {
            AUTH_ISSUER: '',
            DEV_ISSUER: 'true',
            DEMO_DATA: 'true',
            PUBLIC_URL: publicUrl,
            TRUSTED_PROXIES: '127.0.0.1',
          },
        });
      }),
    );
  });
  afterAll(async () => {
    for (const replica of replicas) await replica.stop();
    await database?.close();
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  const tokenOf = (replica: ServerChild) => /export TOKEN=(\S+)/.exec(replica.output.join(''))?.[1] ?? '';
  const subscriptions = (url: string, token: string) =>
    fetch(`${url}/api/v1/subscriptions`, { headers: { authorization: `Bearer ${token}` } });

  it("start together with DEMO_DATA=true, load the demo once, and accept each other's development tokens", async () => {
    const answers = new Set<string>();
    for (const issuing of replicas) {
      const token = tokenOf(issuing);
      expect(token).not.toBe('');
      for (const replica of replicas) {
        const response = await subscriptions(replica.url, token);
        expect(response.status).toBe(200);
        answers.add(await response.text());
      }
    }
    // One demo data set, the same seen from every replica.
    expect(answers.size).toBe(1);
    expect((JSON.parse([...answers][0]!) as unknown[]).length).toBeGreaterThan(0);
    // The key lives in the database, not in any replica's folder.
    for (const folder of folders) expect(existsSync(join(folder, 'dev-signing-key.json'))).toBe(false);
  });

  describe.skipIf(!existsSync(NGINX))('behind nginx configured as docs/deployment.md shows', () => {
    let prefix: string;
    let nginx: ChildProcess;

    beforeAll(async () => {
      prefix = await mkdtemp(join(tmpdir(), 'nginx-'));
      // nginx's workers run as an unprivileged user: they must reach the temporary folders.
      await chmod(prefix, 0o755);
      for (const dir of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
        await mkdir(join(prefix, dir));
        await chmod(join(prefix, dir), 0o777);
      }
      const upstreams = replicas.slice(0, 2).map((r) => new URL(r.url).host);
      const conf = [
        'daemon off;',
        'worker_processes 1;',
        `pid ${prefix}/nginx.pid;`,
        `error_log ${prefix}/error.log warn;`,
        'events { worker_connections 256; }',
        'http {',
        '  access_log off;',
        ...['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
          (dir) => `  ${dir === 'body' ? 'client_body' : dir}_temp_path ${prefix}/${dir};`,
        ),
        await documentedNginx(upstreams, lbPort),
        '}',
      ].join('\n');
      await writeFile(join(prefix, 'nginx.conf'), conf);
      nginx = spawn(NGINX, ['-p', prefix, '-e', `${prefix}/error.log`, '-c', join(prefix, 'nginx.conf')], {
        stdio: 'ignore',
      });
      const deadline = Date.now() + 10_000;
      for (;;) {
        try {
          if ((await fetch(`${publicUrl}/api/ping`)).status === 200) break;
        } catch {
          // not listening yet
        }
        if (Date.now() > deadline || nginx.exitCode !== null)
          throw new Error(`nginx did not start: ${await readFile(join(prefix, 'error.log'), 'utf8')}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    });
    afterAll(async () => {
      if (nginx && nginx.exitCode === null) {
        const exited = once(nginx, 'exit');
        nginx.kill('SIGTERM');
        await exited;
      }
      if (prefix) await rm(prefix, { recursive: true, force: true });
    });

    it('serves through the load balancer and probes answer', async () => {
      const token = tokenOf(replicas[2]!);
      for (let i = 0; i < 10; i++) expect((await subscriptions(publicUrl, token)).status).toBe(200);
      expect((await fetch(`${publicUrl}/api/ready`)).status).toBe(200);
      // The replicas trust nginx's X-Forwarded-For: each client behind it has its own connection share and budget.
      expect(
        (await fetch(`${publicUrl}/api/ping`, { headers: { 'x-forwarded-for': '192.0.2.7' } })).status,
      ).toBe(200);
    });

    it('keeps answering, never with a 5xx, while a replica shuts down under traffic', async () => {
      const token = tokenOf(replicas[2]!);
      const statuses: number[] = [];
      let stopping: Promise<void> | undefined;
      for (let i = 0; i < 60; i++) {
        if (i === 10) stopping = replicas[0]!.stop();
        statuses.push((await subscriptions(publicUrl, token)).status);
      }
      await stopping;
      expect(replicas[0]!.child.exitCode).toBe(0);
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
    });
  });
});
