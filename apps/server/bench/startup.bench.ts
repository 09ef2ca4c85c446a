/**
 * `npm run bench -w @platform/server` (part of `npm run bench`): how fast the programs start, from their built
 * bins, as a user runs them. In one run, beside `node -e 0` and a bare PGlite open of an empty folder: a cold
 * start (empty DATA_DIR, demo data) and a warm start to the first 200 on /api/v1/info, with the phases the
 * server reports, then `platform-server token` and `connector-cli --help`. Writes bench/results/startup.json.
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Figure } from './figure.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const serverBin = join(root, 'apps/server/bin/platform-server.js');
const cliBin = join(root, 'packages/cli/bin/connector-cli.js');
const RUNS = Number(process.env.STARTUP_RUNS ?? 5);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** Wall time of a process from spawn to exit, in ms; the median of `RUNS` runs. */
const timeProcess = async (args: string[], env: Record<string, string> = {}): Promise<number> => {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const begin = performance.now();
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: 'ignore' });
    const [code] = (await once(child, 'exit')) as [number | null];
    if (code !== 0) throw new Error(`${args.join(' ')} exited with ${code}`);
    times.push(performance.now() - begin);
  }
  return Math.round(median(times));
};

const freePort = async (): Promise<number> => {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
};

const status = (port: number) =>
  new Promise<number>((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/api/v1/info' }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
    req.end();
  });

/** Spawn to first 200 on /api/v1/info (polled every 5 ms), and the phases the server logged. */
const timeStart = async (dataDir: string) => {
  const port = await freePort();
  const begin = performance.now();
  const child = spawn(process.execPath, [serverBin, 'start'], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'info', DATABASE_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += String(chunk);
  });
  child.stderr.on('data', (chunk) => {
    output += String(chunk);
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited: ${output}`);
      if ((await status(port)) === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const ms = Math.round(performance.now() - begin);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const line = output.split('\n').find((l) => l.includes('"msg":"started"'));
    const phases = line ? ((JSON.parse(line) as { phases: Record<string, number> }).phases ?? {}) : {};
    return { ms, phases };
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
};

// The bins run their builds, and new databases start from the store's template: make them from the sources.
execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });

const work = await mkdtemp(join(tmpdir(), 'startup-bench-'));
try {
  // The machine may be shared: its load at the start of the run stands beside the figures.
  const load = Math.round((loadavg()[0] ?? 0) * 100) / 100;
  const bareNode = await timeProcess(['-e', '0']);
  const pgliteDir = join(work, 'bare-pglite');
  await mkdir(pgliteDir);
  // Run from the repository root, whose node_modules holds PGlite.
  const barePglite = Number(
    execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { PGlite } from '@electric-sql/pglite';
         const begin = performance.now();
         const db = new PGlite(${JSON.stringify(pgliteDir)});
         await db.waitReady;
         process.stdout.write(String(Math.round(performance.now() - begin)));
         await db.close();`,
      ],
      { cwd: root, encoding: 'utf8' },
    ),
  );

  const dataDir = join(work, 'data');
  const cold = await timeStart(dataDir);
  const warm = await timeStart(dataDir);
  const token = await timeProcess([serverBin, 'token', '--sub', 'bench'], { DATA_DIR: dataDir });
  const cliHelp = await timeProcess([cliBin, '--help']);

  const nodeAnchor = { label: 'node -e 0', value: bareNode };
  const figures: Figure[] = [
    { label: `load average (1 min) at the start of this run, ${cpus().length} cores`, value: load, unit: '' },
    { label: 'node -e 0 (process start, median)', value: bareNode, unit: 'ms' },
    { label: 'bare PGlite open of an empty folder (initdb)', value: barePglite, unit: 'ms' },
    {
      label: 'cold start to first 200 on /api/v1/info (empty DATA_DIR, demo data)',
      value: cold.ms,
      unit: 'ms',
      anchor: { label: 'bare PGlite open', value: barePglite },
      target: '≤ 5000 ms',
      met: cold.ms <= 5000,
    },
    ...Object.entries(cold.phases).map(([phase, ms]) => ({
      label: `  cold start phase: ${phase}`,
      value: ms,
      unit: 'ms',
    })),
    {
      label: 'warm start to first 200 on /api/v1/info',
      value: warm.ms,
      unit: 'ms',
      anchor: nodeAnchor,
      target: '≤ 1500 ms',
      met: warm.ms <= 1500,
    },
    ...Object.entries(warm.phases).map(([phase, ms]) => ({
      label: `  warm start phase: ${phase}`,
      value: ms,
      unit: 'ms',
    })),
    {
      label: 'platform-server token (median)',
      value: token,
      unit: 'ms',
      anchor: nodeAnchor,
      target: '≤ 500 ms',
      met: token <= 500,
    },
    {
      label: 'connector-cli --help (median)',
      value: cliHelp,
      unit: 'ms',
      anchor: nodeAnchor,
      target: '≤ 500 ms and ≤ 5× node -e 0',
      met: cliHelp <= 500 && cliHelp <= 5 * bareNode,
    },
  ];
  const results = join(root, 'bench/results');
  await mkdir(results, { recursive: true });
  await writeFile(
    join(results, 'startup.json'),
    `${JSON.stringify({ name: 'startup', at: new Date().toISOString(), backend: 'embedded PGlite', figures }, null, 2)}\n`,
  );
  for (const figure of figures) console.info(`${figure.label}: ${figure.value} ${figure.unit}`);
} finally {
  await rm(work, { recursive: true, force: true });
}
