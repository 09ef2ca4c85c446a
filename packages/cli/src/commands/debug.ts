import type { Command } from 'commander';
import type { Context } from '../context.ts';
import { startDebugServer } from '../debug/debug-server.ts';
import { platformRelay } from '../debug/platform-relay.ts';
import { UsageError } from '../errors.ts';
import { compileLocal, readLocalProject } from '../local/local-project.ts';
import { relayFetch } from '../local/relay-fetch.ts';
import { addTargetOptions, requireOptions, type TargetOptions, targetOf } from '../options.ts';
import { resolveToken } from '../token.ts';
import type { RunAction } from './action.ts';

type DebugOptions = TargetOptions & { port?: string; watch?: boolean };

/** Until SIGINT or SIGTERM. */
const untilStopped = () =>
  new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });

/**
 * `debug [project] [-p port]`: a local page that runs the connector in the browser (docs/connector-cli.md). Its fetches
 * go out through this process; with `--connectorId -e -b`, through the platform's proxy with the real authorization.
 */
export const debugProject = async (ctx: Context, dir: string | undefined, options: DebugOptions) => {
  const port = options.port === undefined ? 3300 : Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(`-p must be a port number from 0 to 65535, got ${options.port}; e.g. -p 3300`);
  }
  const viaPlatform =
    options.connectorId !== undefined || options.environment !== undefined || options.baseUrl !== undefined;
  let relay = relayFetch;
  let via = 'this machine (connector-cli relay)';
  if (viaPlatform) {
    requireOptions('debug', [
      [options.connectorId, '--connectorId'],
      [options.environment, '-e'],
      [options.baseUrl, '-b'],
    ]);
    const target = targetOf(options);
    const token = await resolveToken(ctx.globals.token, ctx.env, { required: true });
    ctx.out.addSecret(token!.token);
    relay = platformRelay(target, options.connectorId!, token!.token);
    via = `the platform proxy of ${target.environment} (browser usage)`;
  }
  const local = await readLocalProject(dir);
  await compileLocal(local); // A connector that does not compile is reported before the page opens.
  const { config, json } = local.project;
  const { url, server } = await startDebugServer({
    port,
    project: {
      name: String(config.connectorName ?? config.name ?? json.name ?? 'connector'),
      type: local.type,
      options: local.options,
    },
    script: () => compileLocal(local),
    relay,
    via,
    onError: (error) =>
      ctx.out.debug(`debug server: ${error instanceof Error ? error.message : String(error)}`),
  });
  ctx.out.result(`Debugging ${local.project.dir} at ${url} (fetches through ${via}); Ctrl+C to stop`, {
    url,
    via,
  });
  await untilStopped();
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
};

export const registerDebug = (program: Command, run: RunAction) =>
  addTargetOptions(
    program
      .command('debug')
      .summary('a local page that runs the connector in the browser')
      .description(
        'Serve a local page that runs the connector in the browser in the platform runtime: call each method with typed-in arguments, see media as thumbnails, data as a table and every fetch. Fetches go out through this process, or with --connectorId -e -b through the platform proxy with the real authorization.',
      )
      .argument('[project]', 'the connector project directory (default .)')
      .option('-p, --port <port>', 'port of the local page (default 3300; 0 picks a free one)')
      // The page compiles connector.ts afresh each time it loads the connector: it always watches. Accepted so that
      // the platform CLI's `debug -p 3300 -w` runs unchanged.
      .option('-w, --watch', 'the page runs connector.ts as it is when the page is loaded (always on)')
      .option(
        '--connectorId <id>',
        'run fetches through the proxy of this published connector (needs -e and -b)',
      ),
  )
    .addHelpText(
      'after',
      '\nExamples:\n  connector-cli debug -p 3300\n  connector-cli debug --connectorId <id> -e acme-prod -b http://acme-prod.localhost:8080/grafx',
    )
    .action((dir: string | undefined, options: DebugOptions) =>
      run((ctx) => debugProject(ctx, dir, options)),
    );
