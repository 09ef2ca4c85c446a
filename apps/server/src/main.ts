import { parseArgs } from 'node:util';
import { isServiceError } from '@platform/core';
import { UsageError } from './commands/usage-error.ts';
import { ConfigError } from './config.ts';

const USAGE = `Usage: platform-server <command>

Commands:
  start                                     run the platform (what npm start runs)
  migrate                                   apply database migrations and exit
  import FILE                               upsert a data file (all or nothing; idempotent)
  export [FILE]                             write what the database holds as a data file (stdout without FILE)
  token --sub ID [--roles a,b] [--ttl 1h]   mint a development token (not in production)
  rotate-secrets [--batch-size 500] [--pause-ms N]
                                            re-seal every stored secret under SECRETS_KEY's first key, online

Configuration comes from environment variables: see docs/configuration.md.`;

const run = async (argv: string[]): Promise<void> => {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      sub: { type: 'string' },
      roles: { type: 'string' },
      ttl: { type: 'string' },
      'batch-size': { type: 'string' },
      'pause-ms': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || command === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  // Each command loads only its own modules: `token` needs neither the database nor the HTTP stack.
  switch (command ?? 'start') {
    case 'start':
      return (await import('./commands/start.ts')).start();
    case 'migrate':
      return (await import('./commands/migrate.ts')).migrate();
    case 'import':
      return (await import('./commands/import.ts')).importFile(rest[0]);
    case 'export':
      return (await import('./commands/export.ts')).exportFile(rest[0]);
    case 'rotate-secrets':
      return (await import('./commands/rotate-secrets.ts')).rotateSecrets(values);
    case 'token':
      return (await import('./commands/token.ts')).token(values);
    default:
      throw new UsageError(`Unknown command '${command}'. Run platform-server --help.`);
  }
};

run(process.argv.slice(2)).catch(async (error: unknown) => {
  if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    process.stderr.write(`error: ${(error as Error).message}\n`);
    process.exit(2);
  }
  if (error instanceof ConfigError) {
    process.stderr.write(`Configuration error: ${error.message}\n`);
    process.exit(2);
  }
  if (isServiceError(error)) {
    process.stderr.write(`error: ${error.message}\n`);
    process.exit(1);
  }
  // Never a failed query's parameters (docs/configuration.md); the store is loaded only when it comes to that.
  const { loggableError } = await import('@platform/store');
  process.stderr.write(`error: ${loggableError(error).message}\n`);
  process.exit(1);
});
