import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { normalizeArgv, shortSpellingOf } from './argv.ts';
import { registerBuild } from './commands/build.ts';
import { registerDebug } from './commands/debug.ts';
import { registerDelete } from './commands/delete.ts';
import { registerDeleteAuth } from './commands/delete-auth.ts';
import { registerDemo } from './commands/demo.ts';
import { registerInfo } from './commands/info.ts';
import { registerList } from './commands/list.ts';
import { registerLogin } from './commands/login.ts';
import { registerNew } from './commands/new.ts';
import { registerPublish } from './commands/publish.ts';
import { registerSetAuth } from './commands/set-auth.ts';
import { registerStress } from './commands/stress.ts';
import { registerTest } from './commands/test.ts';
import { registerUpdate } from './commands/update.ts';
import type { Context, GlobalOptions } from './context.ts';
import type { CliEnv } from './env.ts';
import { CliError, UsageError } from './errors.ts';
import { Output, type Writer } from './output.ts';

export type Deps = { env: CliEnv; stdout: Writer; stderr: Writer };

const version = (): string => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version?: string;
  };
  return pkg.version ?? '0.0.0';
};

/** Commander's own messages can span lines; docs/connector-cli.md promises one line, with the way to fix it. */
const oneLine = (message: string, command: string): string =>
  `${message
    .trim()
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' ')}; see connector-cli${command ? ` ${command}` : ''} --help\n`;

const configure = (command: Command, deps: Deps, out: Output, name: string): void => {
  command
    .configureOutput({
      writeOut: deps.stdout,
      writeErr: deps.stderr,
      // With --json, commander's own errors (an unknown option, a missing value) are JSON like every other.
      outputError: (message, write) => {
        if (out.json) out.error(new UsageError(oneLine(message.replace(/^error:\s*/, ''), name).trim()));
        else write(oneLine(message, name));
      },
    })
    .configureHelp({
      // `-au`/`-at` are rewritten to long options before parsing; help shows both spellings.
      optionTerm: (option) => {
        const short = option.long === undefined ? undefined : shortSpellingOf(option.long);
        return short === undefined ? option.flags : `${short}, ${option.flags}`;
      },
    })
    .exitOverride();
};

export const createProgram = (deps: Deps, out: Output): Command => {
  const program = new Command('connector-cli');
  program
    .description('Publish connectors to the platform and configure how they authorize their requests.')
    .version(version(), '-v, --version', 'print the version')
    .option('--verbose', 'print request lines, HTTP status and full error bodies (never secrets)')
    .option('--dry-run', 'print the request that would be sent, secrets masked; send nothing')
    .option('--json', 'machine-readable output: one JSON document on stdout, errors as JSON on stderr')
    .option(
      '--token <token>',
      'bearer token (default: $CONNECTOR_CLI_TOKEN, else the session of connector-cli login)',
    )
    .addHelpText(
      'after',
      `
Exit status: 0 done, 1 the command failed (server error, network), 2 usage error (nothing was sent).
Run connector-cli <command> --help for a command's options and examples.`,
    );
  configure(program, deps, out, '');

  const globals = (): GlobalOptions => {
    const opts = program.opts<{ verbose?: boolean; dryRun?: boolean; json?: boolean; token?: string }>();
    return {
      verbose: opts.verbose === true,
      dryRun: opts.dryRun === true,
      json: opts.json === true,
      token: opts.token,
    };
  };
  const run = async (action: (ctx: Context) => Promise<void>) => {
    const options = globals();
    out.configure({ json: options.json, verbose: options.verbose });
    if (options.token !== undefined) out.addSecret(options.token);
    await action({ out, env: deps.env, globals: options });
  };

  for (const register of [
    registerSetAuth,
    registerDeleteAuth,
    registerPublish,
    registerUpdate,
    registerNew,
    registerList,
    registerDelete,
    registerLogin,
    registerBuild,
    registerInfo,
    registerTest,
    registerStress,
    registerDebug,
    registerDemo,
  ]) {
    const command = register(program, run);
    configure(command, deps, out, command.name());
  }
  return program;
};

/** Runs the CLI on `args` (without node and script) and resolves to the exit status; never exits itself. */
export const run = async (args: readonly string[], deps: Deps): Promise<number> => {
  // `--json` is known before commander parses anything, so that its errors of parsing come as JSON too.
  const end = args.indexOf('--');
  const json = (end === -1 ? args : args.slice(0, end)).includes('--json');
  const out = new Output({ json, verbose: false, stdout: deps.stdout, stderr: deps.stderr });
  const program = createProgram(deps, out);
  try {
    await program.parseAsync(normalizeArgv(args), { from: 'user' });
    return 0;
  } catch (error) {
    // Commander has already printed its message (or the help); only the status is left to decide.
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof CliError) {
      out.error(error);
      return error.exitCode;
    }
    const reason = error instanceof Error ? error.message : String(error);
    const stack = error instanceof Error && error.stack ? [error.stack] : [];
    out.error(
      new CliError(
        'NETWORK_ERROR',
        `unexpected failure (${reason}); run again with --verbose and report it`,
        {
          details: stack,
        },
      ),
    );
    return 1;
  }
};
