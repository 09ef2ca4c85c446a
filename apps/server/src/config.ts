import { readFileSync } from 'node:fs';
import { totalmem } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';

const seconds = (fallback: number) =>
  z.coerce.number({ error: 'must be a number of seconds' }).positive().max(86_400).default(fallback);

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

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
    .optional()
    .transform((v) => (v === undefined ? fallback : ['true', '1', 'yes'].includes(v)));

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === '' ? undefined : v));

/** docs/configuration.md: the only place that reads the environment. */
const Env = z.object({
  PORT: z.coerce.number({ error: 'must be a port number' }).int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: optionalText.pipe(z.url({ error: 'must be an absolute URL' }).optional()),
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
  ),
  DATA_DIR: z.string().min(1).default('./.data'),
  DEMO_DATA: optionalText,
  AUTH_ISSUER: optionalText.pipe(z.url({ error: 'must be the issuer URL' }).optional()),
  AUTH_AUDIENCE: z.string().min(1).default('platform-api'),
  CONSOLE_CLIENT_ID: z
    .string()
    .regex(/^[\x21-\x7e]{1,200}$/, 'must be an OAuth client id (printable ASCII, no spaces)')
    .default('platform-console'),
  SECRETS_KEY: optionalText.pipe(
    z
      .string()
      .refine(
        (v) => Buffer.from(v, 'base64').length === 32,
        'must be 32 bytes, base64-encoded (openssl rand -base64 32)',
      )
      .optional(),
  ),
  PROXY_ALLOW_PRIVATE_NETWORKS: bool(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RATE_LIMIT_PER_SECOND: z.coerce.number({ error: 'must be a number' }).min(0).default(200),
  MAX_CONNECTIONS: z.coerce.number({ error: 'must be a whole number' }).int().min(1).optional(),
  IDLE_TIMEOUT_SECONDS: seconds(30),
  REQUEST_TIMEOUT_SECONDS: seconds(300),
  METRICS_PORT: optionalText.pipe(
    z
      .string()
      .regex(/^\d{1,5}$/, 'must be a port number')
      .transform(Number)
      .refine((port) => port <= 65535, 'must be a port number')
      .optional(),
  ),
  RUNTIME_MEMORY_MB: z.coerce.number({ error: 'must be a number of MiB' }).int().min(8).max(2048).default(64),
  RUNTIME_TIMEOUT_SECONDS: seconds(30),
  RUNTIME_MAX_FETCHES: z.coerce
    .number({ error: 'must be a whole number' })
    .int()
    .min(1)
    .max(10_000)
    .default(100),
  NODE_ENV: z.string().default('development'),
});

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
  /** Open connections accepted at once; more are refused at accept. */
  maxConnections: number;
  /** A connection that sends nothing for this long (no request headers yet, or a body that stalls) is closed. */
  idleTimeoutMs: number;
  /** A request must arrive whole (headers and body) within this. */
  requestTimeoutMs: number;
  /** METRICS_PORT: metrics without a token on a listener of their own (bound to HOST); unset, none. */
  metricsPort: number | undefined;
  /** Limits of one connector invocation (docs/connector-runtime.md). */
  runtime: { memoryBytes: number; timeoutMs: number; maxFetches: number };
  production: boolean;
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const loadConfig = (env: Record<string, string | undefined> = process.env): Config => {
  const parsed = Env.safeParse(env);
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
  const production = e.NODE_ENV === 'production';
  if (!embedded && !e.SECRETS_KEY) {
    throw new ConfigError(
      'SECRETS_KEY is required with DATABASE_URL: set it to 32 random bytes, base64 (openssl rand -base64 32).',
    );
  }
  if (e.IDLE_TIMEOUT_SECONDS > e.REQUEST_TIMEOUT_SECONDS) {
    throw new ConfigError('IDLE_TIMEOUT_SECONDS must not be above REQUEST_TIMEOUT_SECONDS.');
  }
  if (production && !e.AUTH_ISSUER) {
    throw new ConfigError(
      'AUTH_ISSUER is required when NODE_ENV=production: the development issuer never runs in production.',
    );
  }
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
    maxConnections: e.MAX_CONNECTIONS ?? defaultMaxConnections(),
    idleTimeoutMs: e.IDLE_TIMEOUT_SECONDS * 1000,
    requestTimeoutMs: e.REQUEST_TIMEOUT_SECONDS * 1000,
    metricsPort: e.METRICS_PORT,
    runtime: {
      memoryBytes: e.RUNTIME_MEMORY_MB * 1024 * 1024,
      timeoutMs: e.RUNTIME_TIMEOUT_SECONDS * 1000,
      maxFetches: e.RUNTIME_MAX_FETCHES,
    },
    production,
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
