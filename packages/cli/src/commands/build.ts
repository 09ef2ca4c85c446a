import { watch } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import type { Command } from 'commander';
import type { Context } from '../context.ts';
import { CliError } from '../errors.ts';
import { compileLocal, type LocalProject, readLocalProject } from '../local/local-project.ts';
import { checkLocal } from '../local/sandbox.ts';
import type { RunAction } from './action.ts';

const buildOnce = async (ctx: Context, local: LocalProject): Promise<void> => {
  const script = await compileLocal(local);
  await checkLocal(script);
  const out = join(local.project.dir, local.main);
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, script);
  ctx.out.result(
    `Built ${local.main} (${Buffer.byteLength(script)} bytes) from ${relative(local.project.dir, local.entry)}`,
    {
      main: local.main,
      bytes: Buffer.byteLength(script),
    },
  );
};

/** Until SIGINT or SIGTERM: each change of a .ts file of the project builds again; a failed build is reported, not fatal. */
const watchProject = (ctx: Context, local: LocalProject): Promise<void> =>
  new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const watcher = watch(local.project.dir, { recursive: true }, (_event, file) => {
      if (!file?.endsWith('.ts') || file.includes('node_modules')) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        buildOnce(ctx, local).catch((error: unknown) => {
          if (error instanceof CliError) ctx.out.error(error);
          else throw error;
        });
      }, 50);
    });
    ctx.out.info(`Watching ${local.project.dir} for changes (Ctrl+C to stop)`);
    const stop = () => {
      clearTimeout(timer);
      watcher.close();
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });

/**
 * `build [project] [-w]`: connector.ts bundled into `main` as one ES2020 module, written only when the runtime loads
 * it as the server does at publish (docs/connector-cli.md).
 */
export const buildProject = async (ctx: Context, dir: string | undefined, options: { watch?: boolean }) => {
  const local = await readLocalProject(dir);
  await buildOnce(ctx, local);
  if (options.watch) await watchProject(ctx, local);
};

export const registerBuild = (program: Command, run: RunAction) =>
  program
    .command('build')
    .summary('bundle connector.ts into the module package.json "main" names')
    .description(
      'Bundle connector.ts into one ES2020 module at the "main" of package.json, and load it in the platform\'s runtime as publish does: a module the platform would refuse is not written (exit 1). A connector imports only relative files and the types of @chili-publish/studio-connectors, which vanish from the module whatever tsconfig.json says.',
    )
    .argument('[project]', 'the connector project directory (default .)')
    .option('-w, --watch', 'build again whenever a .ts file of the project changes')
    .addHelpText('after', '\nExamples:\n  connector-cli build\n  connector-cli build ./my-connector -w')
    .action((dir: string | undefined, options: { watch?: boolean }) =>
      run((ctx) => buildProject(ctx, dir, options)),
    );
