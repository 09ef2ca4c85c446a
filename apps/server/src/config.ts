import { readFileSync } from 'node:fs';
import { isIP, isIPv4 } from 'node:net';
import { availableParallelism, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { secretsKeysProblem } from '@platform/store/secrets-keys';
import { z } from 'zod';

const seconds = (fallback: number) =>
  z.coerce
    .number({ error: 'must be a number of seconds above 0, at most 86400' })
    .positive()
    .max(86_400)
    .default(fallback);

/**
 * The default cap on open connections, sized for the machine: half the open-file limit left after 256 descriptors
 * for the database, files and logs (a proxied request holds a second socket upstream), and no more than one per
 * 512 KiB of memory. Linux tells the limit in /proc; elsewhere 1024, the usual soft limit, is assumed.
 */
const defaultMaxConnections = (): number => {
  let openFiles = 1024;
  try {
    const limit = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1];
    if (limit) openFiles = Number(limit);
  } catch {
    // not Linux: keep the usual soft limit
  }
  return Math.max(64, Math.min(Math.floor((openFiles - 256) / 2), Math.floor(totalmem() / (512 * 1024))));
};

const isAddressOrRange = (entry: string): boolean => {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
};

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
    .optional()
    .transform((v) => (v === undefined ? fallback : ['true', '1', 'yes'].includes(v)));

/** true, false, or unset (undefined): for a setting whose default depends on others. */
const choice = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''], { error: 'must be true or false' })
  .optional()
  .transform((v) => (v === undefined || v === '' ? undefined : ['true', '1', 'yes'].includes(v)));

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === '' ? undefined : v));

/** docs/configuration.md: the only place that reads the environment. */
/** RFC 1123 host name: dot-separated labels of letters, digits and inner hyphens. */
const HOST_NAME =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

const Env = z.object({
  PORT: z.coerce
    .number({ error: 'must be a port number (0 to 65535)' })
    .int()
    .min(0)
    .max(65535)
    .default(8080),
  HOST: z
    .string()
    .refine((host) => isIP(host) !== 0 || HOST_NAME.test(host), {
      error: 'must be an IP address or a host name (letters, digits, dots and hyphens) to bind to',
    })
    .default('127.0.0.1'),
  PUBLIC_URL: optionalText.pipe(
    z
      .url({ protocol: /^https?$/, error: 'must be an absolute http:// or https:// URL' })
      // It is printed in the start banner and built into every OAuth redirect URI.
      .refine(
        (url) => {
          // zod runs this even after the URL check failed: a value that is no URL is that check's to refuse.
          if (!URL.canParse(url)) return true;
          const { username, password } = new URL(url);
          return username === '' && password === '';
        },
        {
          error: 'must not carry a user name or password',
        },
      )
      // Paths are appended to it (`/console`, redirect URIs): a query or fragment would end up in their middle.
      .refine(
        (url) => {
          if (!URL.canParse(url)) return true;
          const { search, hash } = new URL(url);
          return search === '' && hash === '' && !/[?#]/.test(url);
        },
        { error: 'must not carry a query or a fragment' },
      )
      .optional(),
  ),
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      // The driver parses it as a URL: one that does not parse would otherwise fail as an unreachable database.
      .refine((url) => !/^postgres(ql)?:\/\//.test(url) || URL.canParse(url), {
        error: 'must be a postgres:// URL that parses (user, password and database percent-encoded)',
      })
      .optional(),
  ),
  DATA_DIR: z.string().min(1).default('./.data'),
  DEMO_DATA: optionalText,
  AUTH_ISSUER: optionalText.pipe(
    z.url({ protocol: /^https?$/, error: 'must be the issuer URL (http:// or https://)' }).optional(),
  ),
  AUTH_AUDIENCE: z.string().min(1).default('platform-api'),
  CONSOLE_CLIENT_ID: z
    .string()
    .regex(/^[\x21-\x7e]{1,200}$/, 'must be an OAuth client id (printable ASCII, no spaces)')
    .default('platform-console'),
  SECRETS_KEY: optionalText.pipe(
    z
      .string()
      .superRefine((text, context) => {
        // One key, or several as id:base64,... (docs/configuration.md, "Secrets keys"): the rule, never the value.
        const problem = secretsKeysProblem(text);
        if (problem) context.addIssue({ code: 'custom', message: problem });
      })
      .optional(),
  ),
  PROXY_ALLOW_PRIVATE_NETWORKS: bool(false),
  AUDIT_RETENTION_DAYS: z.coerce
    .number({ error: 'must be a whole number of days, 1 or more' })
    .int({ error: 'must be a whole number of days, 1 or more' })
    .min(1, 'must be a whole number of days, 1 or more')
    .max(36_500, 'must be at most 36500 days')
    .default(400),
  // For the audit bench's anchor only (bench/audit.bench.ts): the same writes without their entries.
  AUDIT_BENCH_OFF: bool(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RATE_LIMIT_PER_SECOND: z.coerce
    .number({ error: 'must be a number, 0 or more (0 turns the limit off)' })
    .min(0)
    .default(200),
  MAX_CONNECTIONS: z.coerce.number({ error: 'must be a whole number, 1 or more' }).int().min(1).optional(),
  MAX_CONNECTIONS_PER_CLIENT: z.coerce
    .number({ error: 'must be a whole number, 1 or more' })
    .int()
    .min(1)
    .optional(),
  TRUSTED_PROXIES: optionalText.pipe(
    z
      .string()
      .transform((v) =>
        v
          .split(',')
          .map((entry) => entry.trim())
          .filter(Boolean),
      )
      .refine(
        (entries) => entries.every(isAddressOrRange),
        'must be a comma-separated list of IP addresses or CIDR ranges (10.0.0.5, 10.0.0.0/8)',
      )
      .optional(),
  ),
  IDLE_TIMEOUT_SECONDS: seconds(30),
  REQUEST_TIMEOUT_SECONDS: seconds(300),
  TOKEN_TIMEOUT_SECONDS: seconds(10),
  PROXY_EXCHANGE_TIMEOUT_SECONDS: seconds(60),
  DATABASE_CONNECT_TIMEOUT_SECONDS: seconds(5),
  DATABASE_ACQUIRE_TIMEOUT_SECONDS: seconds(5),
  DATABASE_STATEMENT_TIMEOUT_SECONDS: seconds(30),
  METRICS_PORT: optionalText.pipe(
    z
      .string()
      .regex(/^\d{1,5}$/, 'must be a port number')
      .transform(Number)
      .refine((port) => port <= 65535, 'must be a port number')
      .optional(),
  ),
  WORKERS: optionalText.pipe(
    z
      .string()
      .regex(/^(auto|\d{1,3})$/, 'must be auto or a number of processes')
      .transform((v) => (v === 'auto' ? availableParallelism() : Number(v)))
      .refine((workers) => workers >= 1, 'must be auto or a number of processes')
      .optional(),
  ),
  RUNTIME_MEMORY_MB: z.coerce
    .number({ error: 'must be a whole number of MiB from 8 to 2048' })
    .int()
    .min(8)
    .max(2048)
    .default(64),
  RUNTIME_TIMEOUT_SECONDS: seconds(30),
  RUNTIME_MAX_FETCHES: z.coerce
    .number({ error: 'must be a whole number from 1 to 10000' })
    .int()
    .min(1)
    .max(10_000)
    .default(100),
  RUNTIME_SESSION_IDLE_SECONDS: seconds(300),
  RUNTIME_MAX_SESSIONS: optionalText.pipe(
    z
      .string()
      .regex(/^\d{1,7}$/, 'must be a whole number of sessions, at least 1')
      .transform(Number)
      .refine((sessions) => sessions >= 1, 'must be a whole number of sessions, at least 1')
      .optional(),
  ),
  DEV_ISSUER: choice,
  NODE_ENV: z.string().default(''),
});

/**
 * The default bound on warm connector sessions of one server process, sized for the machine: one per 16 MiB of its
 * memory, at least 16 and at most 1,000. A warm session holds 0.4 to 2 MiB for a typical connector
 * (docs/connector-runtime.md, "What sessions cost"), more for one that keeps data in `this`.
 */
const defaultMaxSessions = (): number =>
  Math.max(16, Math.min(1000, Math.floor(totalmem() / (16 * 1024 * 1024))));

/**
 * NODE_ENV values that are not production; any other spelling (`Production`, `prod`, `staging`…) counts as production,
 * so a typo never turns the password-less development issuer on (docs/configuration.md, "The development issuer").
 */
const DEVELOPMENT_ENVIRONMENTS = ['', 'development', 'test'];

/** A bind address only this machine reaches. */
const isLoopbackHost = (host: string): boolean =>
  host === 'localhost' || host === '::1' || host === '[::1]' || (isIPv4(host) && host.startsWith('127.'));

/**
 * Whether the development issuer runs (AUTH_ISSUER unset, outside production): by default only in the zero-install
 * case (embedded database, loopback HOST); elsewhere DEV_ISSUER=true asks for it by name, DEV_ISSUER=false turns
 * it off everywhere. `refused`: neither; a start says what to set.
 */
export type DevIssuerMode = 'on' | 'off' | 'refused';

export type Config = {
  port: number;
  host: string;
  publicUrl: string | undefined;
  databaseUrl: string | undefined;
  dataDir: string;
  demoData: boolean;
  authIssuer: string | undefined;
  authAudience: string;
  consoleClientId: string;
  secretsKey: string | undefined;
  proxyAllowPrivateNetworks: boolean;
  logLevel: z.infer<typeof Env>['LOG_LEVEL'];
  rateLimitPerSecond: number;
  /** AUDIT_RETENTION_DAYS: audit entries older than this are swept (docs/audit.md). */
  auditRetentionDays: number;
  /** False only under AUDIT_BENCH_OFF (the audit bench's anchor; never in production). */
  auditing: boolean;
  /** Open connections accepted at once; more are refused at accept. */
  maxConnections: number;
  /** Open connections one client address may hold at once (a quarter of maxConnections unless set). */
  maxConnectionsPerClient: number;
  /** Load balancers' addresses and ranges: exempt from the per-client share, their X-Forwarded-For trusted. */
  trustedProxies: string[];
  /** A connection that sends nothing for this long (no request headers yet, or a body that stalls) is closed. */
  idleTimeoutMs: number;
  /** A request must arrive whole (headers and body) within this. */
  requestTimeoutMs: number;
  /** TOKEN_TIMEOUT_SECONDS: the most a connector's OAuth token request may take; then 504 `UPSTREAM_TIMEOUT`. */
  tokenTimeoutMs: number;
  /** The connector proxy: a whole exchange with a target, body included, ends after this. */
  proxyExchangeTimeoutMs: number;
  /** PostgreSQL: opening a connection, waiting for a pooled one, one statement (docs/configuration.md). */
  databaseTimeouts: { connectMs: number; acquireMs: number; statementMs: number };
  /** METRICS_PORT: metrics without a token on a listener of their own (bound to HOST); unset, none. */
  metricsPort: number | undefined;
  /** WORKERS: processes serving one port (node:cluster), PostgreSQL only; 1 runs the server in this process. */
  workers: number;
  /** Limits of one connector invocation (docs/connector-runtime.md). */
  runtime: { memoryBytes: number; timeoutMs: number; maxFetches: number };
  /** Warm connector sessions: ended when idle this long, and at most this many per process. */
  runtimeSessions: { idleMs: number; maxSessions: number };
  production: boolean;
  /** `off` whenever AUTH_ISSUER is set. */
  devIssuer: DevIssuerMode;
  /** Why `devIssuer` is `refused`: what to set, in one line. */
  devIssuerRefusal: string | undefined;
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const loadConfig = (env: Record<string, string | undefined> = process.env): Config => {
  // An empty value is an unset one, for every variable, and so is one of blanks alone (a stray space after `=` in an
  // env file): `RATE_LIMIT_PER_SECOND=` or `= ` must not turn the limit off (Number(' ') is 0), nor `PORT=` pick a
  // random port.
  const parsed = Env.safeParse(
    Object.fromEntries(Object.entries(env).filter(([, value]) => value === undefined || value.trim() !== '')),
  );
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = String(issue?.path[0] ?? 'environment');
    // The variable and the rule, never the value: SECRETS_KEY, DATABASE_URL (its password) and others hold credentials.
    throw new ConfigError(`${variable} is not valid: ${issue?.message}.`);
  }
  const e = parsed.data;
  const embedded = e.DATABASE_URL === undefined;
  const demo = bool(embedded).safeParse(e.DEMO_DATA);
  if (!demo.success) throw new ConfigError('DEMO_DATA is not valid: must be true or false.');
  const nodeEnv = e.NODE_ENV.trim().toLowerCase();
  const production = !DEVELOPMENT_ENVIRONMENTS.includes(nodeEnv);
  if (!embedded && !e.SECRETS_KEY) {
    throw new ConfigError(
      'SECRETS_KEY is required with DATABASE_URL: set it to 32 random bytes, base64 (openssl rand -base64 32), or to several keys as id:base64,id:base64.',
    );
  }
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT === e.PORT && e.PORT !== 0) {
    throw new ConfigError('METRICS_PORT must differ from PORT: the metrics listener is a port of its own.');
  }
  if (e.IDLE_TIMEOUT_SECONDS > e.REQUEST_TIMEOUT_SECONDS) {
    throw new ConfigError('IDLE_TIMEOUT_SECONDS must not be above REQUEST_TIMEOUT_SECONDS.');
  }
  // The embedded database belongs to one process: `auto` is one there, a number above one a mistake to name.
  const workers = embedded ? 1 : (e.WORKERS ?? 1);
  if (embedded && e.WORKERS !== undefined && e.WORKERS > 1 && env.WORKERS !== 'auto') {
    throw new ConfigError(
      'WORKERS above 1 needs DATABASE_URL: the embedded database belongs to one process (unset WORKERS, or set DATABASE_URL).',
    );
  }
  if (production && !e.AUTH_ISSUER) {
    throw new ConfigError(
      `AUTH_ISSUER is required when NODE_ENV is ${JSON.stringify(e.NODE_ENV)}: every NODE_ENV other than development or test counts as production, where the development issuer never runs.`,
    );
  }
  const zeroInstall = embedded && isLoopbackHost(e.HOST);
  const devIssuer: DevIssuerMode =
    e.AUTH_ISSUER || e.DEV_ISSUER === false ? 'off' : e.DEV_ISSUER === true || zeroInstall ? 'on' : 'refused';
  const devIssuerRefusal =
    devIssuer === 'refused'
      ? `AUTH_ISSUER is not set, and the development issuer (no passwords: anyone who reaches the port signs in) starts by itself only on the embedded database with a loopback HOST, not with ${embedded ? `HOST=${e.HOST}` : 'DATABASE_URL'}. Set AUTH_ISSUER to your OpenID issuer, or DEV_ISSUER=true for a development deployment.`
      : undefined;
  const maxConnections = e.MAX_CONNECTIONS ?? defaultMaxConnections();
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl: e.PUBLIC_URL?.replace(/\/$/, ''),
    databaseUrl: e.DATABASE_URL,
    dataDir: resolve(e.DATA_DIR),
    demoData: demo.data,
    authIssuer: e.AUTH_ISSUER?.replace(/\/$/, ''),
    authAudience: e.AUTH_AUDIENCE,
    consoleClientId: e.CONSOLE_CLIENT_ID,
    secretsKey: e.SECRETS_KEY,
    proxyAllowPrivateNetworks: e.PROXY_ALLOW_PRIVATE_NETWORKS,
    logLevel: e.LOG_LEVEL,
    rateLimitPerSecond: e.RATE_LIMIT_PER_SECOND,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    auditing: !(e.AUDIT_BENCH_OFF && !production),
    maxConnections,
    maxConnectionsPerClient: e.MAX_CONNECTIONS_PER_CLIENT ?? Math.max(1, Math.floor(maxConnections / 4)),
    trustedProxies: e.TRUSTED_PROXIES ?? [],
    idleTimeoutMs: e.IDLE_TIMEOUT_SECONDS * 1000,
    requestTimeoutMs: e.REQUEST_TIMEOUT_SECONDS * 1000,
    tokenTimeoutMs: e.TOKEN_TIMEOUT_SECONDS * 1000,
    proxyExchangeTimeoutMs: e.PROXY_EXCHANGE_TIMEOUT_SECONDS * 1000,
    databaseTimeouts: {
      connectMs: e.DATABASE_CONNECT_TIMEOUT_SECONDS * 1000,
      acquireMs: e.DATABASE_ACQUIRE_TIMEOUT_SECONDS * 1000,
      statementMs: e.DATABASE_STATEMENT_TIMEOUT_SECONDS * 1000,
    },
    metricsPort: e.METRICS_PORT,
    workers,
    runtime: {
      memoryBytes: e.RUNTIME_MEMORY_MB * 1024 * 1024,
      timeoutMs: e.RUNTIME_TIMEOUT_SECONDS * 1000,
      maxFetches: e.RUNTIME_MAX_FETCHES,
    },
    runtimeSessions: {
      idleMs: e.RUNTIME_SESSION_IDLE_SECONDS * 1000,
      maxSessions: e.RUNTIME_MAX_SESSIONS ?? defaultMaxSessions(),
    },
    production,
    devIssuer,
    devIssuerRefusal,
  };
};

/** `http://HOST:PORT` unless PUBLIC_URL says otherwise; the actual port once listening (PORT=0 in tests). */
export const publicUrlOf = (config: Config, port: number): string => {
  if (config.publicUrl) return config.publicUrl;
  const host = config.host.includes(':')
    ? `[${config.host}]`
    : config.host === '0.0.0.0'
      ? '127.0.0.1'
      : config.host;
  return `http://${host}:${port}`;
};
