import type { Command } from 'commander';
import type { Context } from '../context.ts';
import { UsageError } from '../errors.ts';
import { compileLocal, readLocalProject } from '../local/local-project.ts';
import { logErrorLines } from '../local/log-errors.ts';
import { relayFetch } from '../local/relay-fetch.ts';
import { callLocal, loadLocal } from '../local/sandbox.ts';
import type { RunAction } from './action.ts';

type StressOptions = { iterations?: string; id?: string };

const ms = (value: number) => Math.round(value * 1000) / 1000;
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/**
 * `stress [project] [-i N]`: `download` N times in one sandbox, as the platform keeps a connector warm; the time of
 * each call and how much this process's memory grew (the QuickJS heap lives in WebAssembly memory, counted in RSS).
 */
export const stressProject = async (ctx: Context, dir: string | undefined, options: StressOptions) => {
  const iterations = options.iterations === undefined ? 100 : Number(options.iterations);
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > 1_000_000) {
    throw new UsageError(
      `-i must be a whole number from 1 to 1000000, got ${options.iterations}; e.g. -i 500`,
    );
  }
  const local = await readLocalProject(dir);
  const logs = logErrorLines(ctx.out);
  const sandbox = await loadLocal(await compileLocal(local), local.options, relayFetch, {
    onLogError: logs.onLogError,
  });
  const id = options.id ?? 'id';
  try {
    // One call before measuring: the first builds the instance and warms the engine.
    await callLocal(sandbox, 'download', [id, 'thumbnail', 'web', {}]);
    const before = process.memoryUsage();
    const times: number[] = [];
    for (let i = 0; i < iterations; i++) {
      const started = performance.now();
      await callLocal(sandbox, 'download', [id, 'thumbnail', 'web', {}]);
      times.push(performance.now() - started);
    }
    const after = process.memoryUsage();
    times.sort((a, b) => a - b);
    const stats = {
      iterations,
      minMs: ms(times[0] ?? 0),
      medianMs: ms(times[Math.floor(times.length / 2)] ?? 0),
      maxMs: ms(times.at(-1) ?? 0),
      totalMs: ms(times.reduce((sum, t) => sum + t, 0)),
      rssGrowthBytes: after.rss - before.rss,
      heapGrowthBytes: after.heapUsed - before.heapUsed,
    };
    ctx.out.result(
      [
        `download x ${iterations} in one runtime: min ${stats.minMs} ms, median ${stats.medianMs} ms, max ${stats.maxMs} ms (total ${stats.totalMs} ms)`,
        `memory growth: rss ${mb(stats.rssGrowthBytes)} MB, host heap ${mb(stats.heapGrowthBytes)} MB`,
      ].join('\n'),
      stats,
    );
  } finally {
    sandbox.dispose();
    logs.done();
  }
};

export const registerStress = (program: Command, run: RunAction) =>
  program
    .command('stress')
    .summary('call download N times in one runtime: time and memory growth')
    .description(
      'Call download(id, "thumbnail", "web", {}) N times in one sandbox of the platform runtime and print min, median and max time and memory growth. Fetches go out from this machine.',
    )
    .argument('[project]', 'the connector project directory (default .)')
    .option('-i, --iterations <n>', 'how many calls (default 100)')
    .option('--id <id>', 'the media id to download (default "id")')
    .addHelpText(
      'after',
      '\nExamples:\n  connector-cli stress -i 1000\n  connector-cli stress ./my-connector --id photo-1',
    )
    .action((dir: string | undefined, options: StressOptions) =>
      run((ctx) => stressProject(ctx, dir, options)),
    );
