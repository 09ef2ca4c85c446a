import { secretsKeysProblem } from '@platform/store/secrets-keys';
import { z } from 'zod';

/**
 * Configuration of the standalone `connector-proxy` process (docs/configuration.md), read from the environment
 * here and nowhere else. The proxy needs the platform's PostgreSQL and secrets key, and verifies bearer
 * tokens against `AUTH_ISSUER` itself (the built-in development issuer exists only in the platform server).
 */
const flag = z
  .enum(['true', 'false', '1', '0'])
  .default('false')
  .transform((value) => value === 'true' || value === '1');

const Config = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
    HOST: z.string().min(1).default('127.0.0.1'),
    PUBLIC_URL: z.url().optional(),
    DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'a postgres:// URL'),
    // The platform server's keys: one, or several as id:base64,... (the first seals, every one opens).
    SECRETS_KEY: z.string().superRefine((text, context) => {
      const problem = secretsKeysProblem(text);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    }),
    AUTH_ISSUER: z.url(),
    AUTH_AUDIENCE: z.string().min(1).default('platform-api'),
    PROXY_ALLOW_PRIVATE_NETWORKS: flag,
    PROXY_FETCH_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(30_000),
    TOKEN_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(300).default(10),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .transform((c) => ({ ...c, PUBLIC_URL: c.PUBLIC_URL ?? `http://${c.HOST}:${c.PORT}` }));

export type Config = z.infer<typeof Config>;

export const loadConfig = (env: NodeJS.ProcessEnv = process.env): Config => {
  const parsed = Config.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
  throw new Error(`Invalid configuration: ${problems}`);
};
