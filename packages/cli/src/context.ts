import type { CliEnv } from './env.ts';
import type { Output } from './output.ts';

/** The global options of every command (docs/connector-cli.md). */
export type GlobalOptions = {
  verbose: boolean;
  dryRun: boolean;
  json: boolean;
  token: string | undefined;
};

/** What a command needs from the outside world, passed in so commands never read globals. */
export type Context = {
  out: Output;
  env: CliEnv;
  globals: GlobalOptions;
};
