import { resolve } from 'node:path';
import type { Command } from 'commander';
import { installedSdkVersion } from '../connector-project.ts';
import type { Context } from '../context.ts';
import { compileLocal, readLocalProject } from '../local/local-project.ts';
import { logErrorLines } from '../local/log-errors.ts';
import { relayFetch } from '../local/relay-fetch.ts';
import { callLocal, jsonOf, loadLocal } from '../local/sandbox.ts';
import { writeOutput } from '../write-output.ts';
import type { RunAction } from './action.ts';

/** `info [project] [-o file]`: what the connector says about itself, run in the platform's runtime, and its package.json. */
export const projectInfo = async (ctx: Context, dir: string | undefined, options: { out?: string }) => {
  const local = await readLocalProject(dir);
  const logs = logErrorLines(ctx.out);
  const sandbox = await loadLocal(await compileLocal(local), local.options, relayFetch, {
    onLogError: logs.onLogError,
  });
  try {
    const capabilities = jsonOf(await callLocal(sandbox, 'getCapabilities', []));
    const configurationOptions = jsonOf(await callLocal(sandbox, 'getConfigurationOptions', []));
    const { config, json } = local.project;
    const { sdkVersion } = await import('@platform/runtime');
    const declared = config.options ?? {};
    // The platform CLI's keys first (apiVersion, logoUrl and runtimeOptions included: scripts written for its
    // `info -o` file read them), then this CLI's own.
    const info = {
      apiVersion: (await installedSdkVersion(local.project)) ?? null,
      capabilities,
      configurationOptions,
      type: local.type,
      logoUrl: config.iconUrl ?? null,
      supportedAuth: config.supportedAuth ?? null,
      runtimeOptions: declared,
      name: config.connectorName ?? config.name ?? json.name,
      version: json.version,
      methods: methodsRun(local.type, capabilities),
      sdkVersion,
      options: declared,
    };
    const text = JSON.stringify(info, null, 2);
    if (options.out === undefined) {
      ctx.out.result(text, info);
      return;
    }
    await writeOutput(resolve(options.out), `${text}\n`);
    ctx.out.result(`Written to ${options.out}`, { out: options.out, info });
  } finally {
    sandbox.dispose();
    logs.done();
  }
};

/**
 * The methods the platform runs for this connector: its type's, plus `upload` (media) and `getPageItemById` (data)
 * when its capabilities say `upload: true` and `dataSourceVariable: true` (else the platform answers METHOD_MISSING).
 */
const methodsRun = (type: string | undefined, capabilities: unknown): string[] => {
  const says = (name: string) =>
    typeof capabilities === 'object' &&
    capabilities !== null &&
    (capabilities as Record<string, unknown>)[name] === true;
  if (type === 'media') return ['query', 'detail', 'download', ...(says('upload') ? ['upload'] : [])];
  if (type === 'data')
    return ['getPage', 'getModel', ...(says('dataSourceVariable') ? ['getPageItemById'] : [])];
  return [];
};

export const registerInfo = (program: Command, run: RunAction) =>
  program
    .command('info')
    .summary("print the connector's type, capabilities, configuration options and supported authorization")
    .description(
      "Run getCapabilities() and getConfigurationOptions() in the platform runtime and print them as JSON: the platform CLI's keys (apiVersion: the project's installed SDK version; capabilities; configurationOptions; type; logoUrl: config.iconUrl; supportedAuth; runtimeOptions: config.options), then name, version, the methods the platform runs (upload and getPageItemById only where the capabilities say upload and dataSourceVariable), sdkVersion (the SDK version the runtime implements) and options (config.options again).",
    )
    .argument('[project]', 'the connector project directory (default .)')
    .option('-o, --out <file>', 'write the JSON to this file instead of stdout')
    .addHelpText(
      'after',
      '\nExamples:\n  connector-cli info\n  connector-cli info ./my-connector -o info.json',
    )
    .action((dir: string | undefined, options: { out?: string }) =>
      run((ctx) => projectInfo(ctx, dir, options)),
    );
