import { homedir } from 'node:os';

/**
 * The one place the CLI reads its environment. Everything else receives these values as arguments,
 * so tests can run the commands with any environment they choose.
 */
export type CliEnv = {
  /** `CONNECTOR_CLI_TOKEN`: a bearer token used when `--token` is not given. */
  token: string | undefined;
  /** `CONNECTOR_CLI_ISSUER`: the OpenID issuer `login` uses when `--issuer` is not given. */
  issuer: string | undefined;
  /** `CONNECTOR_CLI_CLIENT_ID`: the OAuth client id `login` uses when `--client-id` is not given. */
  clientId: string | undefined;
  /** Where the session file lives: `$XDG_CONFIG_HOME`, else `$HOME/.config`. */
  configHome: string;
};

const nonEmpty = (value: string | undefined): string | undefined =>
  value === undefined || value.trim() === '' ? undefined : value;

export const readEnv = (env: NodeJS.ProcessEnv = process.env): CliEnv => {
  const home = nonEmpty(env.HOME) ?? homedir();
  return {
    token: nonEmpty(env.CONNECTOR_CLI_TOKEN),
    issuer: nonEmpty(env.CONNECTOR_CLI_ISSUER),
    clientId: nonEmpty(env.CONNECTOR_CLI_CLIENT_ID),
    configHome: nonEmpty(env.XDG_CONFIG_HOME) ?? `${home}/.config`,
  };
};
