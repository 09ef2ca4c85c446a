#!/usr/bin/env node
/**
 * Every package's tests, in two lanes side by side. The server's suite is by far the longest (mostly waiting on
 * child processes, timers and sockets) and runs one file at a time on a two-core machine (vitest's default there),
 * so it is split in two shards (vitest `--shard`, files apportioned by a hash of their path), one opening each lane.
 * The other packages' suites then form one queue, longest first, and each lane takes the next one whenever it is
 * free: whichever shard ends first takes the proxy's suite, and both lanes end within a short suite of each other
 * however the machine's speed shifts the shards' lengths (a fixed split left one lane two and a half minutes behind
 * the other). More lanes than the machine's two cores would put the suites' timing checks at risk. Exits with the
 * first failed suite's code, after both lanes have ended.
 *
 * The lanes' output is interleaved as it comes, so a failure of the lane that ends first would sit far above the
 * end of the log, where CI systems that keep only the tail never show it. Each failed suite's failure lines and last
 * lines are therefore printed again, last, under a heading naming it.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Lines that name a failed test or task in vitest's, Deno's and npm's output. */
const FAILURE = /\bFAIL\b|\bFAILED\b|Failed:|ERR!/;
const KEPT = 200;
/** vitest ends a failing run with each failure's assertion and stack. */
const TAIL = 150;

// Colour codes would make the repeated lines hard to read in a plain log; the live output keeps them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching ANSI escape sequences is the point
const plain = (line) => line.replace(/\u001b\[[0-9;]*m/g, '');

/**
 * One suite of a lane, its output passed on line by line under its label (the lanes' lines interleave); resolves to
 * its exit code, its failure lines and its last lines.
 */
const run = ({ label, command: [command, ...args] }) =>
  new Promise((resolve) => {
    const kept = [];
    const tail = [];
    const child = spawn(command, args, { stdio: ['inherit', 'pipe', 'pipe'] });
    const partial = new Map();
    const take = (chunk, into) => {
      const lines = ((partial.get(into) ?? '') + chunk.toString()).split('\n');
      partial.set(into, lines.pop() ?? '');
      for (const raw of lines) {
        into.write(`${label} | ${raw}\n`);
        const line = plain(raw);
        tail.push(line);
        if (tail.length > TAIL) tail.shift();
        if (kept.length < KEPT && FAILURE.test(line)) kept.push(line);
      }
    };
    child.stdout.on('data', (chunk) => take(chunk, process.stdout));
    child.stderr.on('data', (chunk) => take(chunk, process.stderr));
    child.on('close', (code, signal) => {
      for (const [into, rest] of partial) if (rest) into.write(`${label} | ${rest}\n`);
      resolve({ code: code ?? (signal ? 1 : 0), kept, tail });
    });
  });

/**
 * A lane: its own first command, then the queue's next suite whenever it is free, each run even after one failed
 * (so that every failure is seen). Resolves to the suites that failed, each with its failure lines and last lines.
 */
const lane = async (first, queue) => {
  const failed = [];
  for (let next = first; next; next = queue.shift()) {
    const outcome = await run(next);
    if (outcome.code !== 0) failed.push({ name: next.name, ...outcome });
  }
  return failed;
};

// Suites in both lanes start the server's and connector-cli's bins, and their global setups rebuild those first
// (tools/build-for-tests.ts: delete dist/, bundle again). One lane's rebuild under the other lane's feet (the
// packaging test packing connector-cli's dist/ while the cli suite rebuilt it) failed a run. So they are built once
// here, before either lane starts, and the setups are told so.
const built = await new Promise((resolve) => {
  const child = spawn(
    'npm',
    ['run', '--silent', 'build', '-w', '@platform/cli', '-w', '@platform/proxy', '-w', '@platform/server'],
    {
      stdio: 'inherit',
    },
  );
  child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
});
if (built !== 0) process.exit(built);
process.env.TEST_PROGRAMS_BUILT = '1';

// Every suite is run by npm, not turbo: turbo counts the arguments it passes on in the key of every task of the
// run, so each server shard typechecked every package again (two and a half minutes); `npm test` typechecked them
// all just before.
const npmTest = (workspace, ...args) => [
  'npm',
  'run',
  'test',
  '-w',
  workspace,
  ...(args.length ? ['--', ...args] : []),
];
const serverShard = (shard) => ({
  name: `the server's suite, shard ${shard} of 2`,
  label: `server ${shard}/2`,
  command: npmTest('@platform/server', `--shard=${shard}/2`),
});
/** The suites known to be long, longest first; any other package's follows them. */
const LONGEST = ['@platform/proxy', '@platform/store', '@platform/cli', '@platform/console'];
const workspaces = JSON.parse(readFileSync('package.json', 'utf8')).workspaces.flatMap((pattern) => {
  const folder = pattern.replace(/\/\*$/, '');
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => JSON.parse(readFileSync(`${folder}/${entry.name}/package.json`, 'utf8')));
});
const rank = (name) => (LONGEST.includes(name) ? LONGEST.indexOf(name) : LONGEST.length);
const queue = workspaces
  .filter((pkg) => pkg.name !== '@platform/server' && pkg.scripts?.test)
  .sort((a, b) => rank(a.name) - rank(b.name))
  .map((pkg) => ({
    name: `${pkg.name}'s suite`,
    label: pkg.name.replace(/^@platform\//, ''),
    command: npmTest(pkg.name),
  }));
const lanes = await Promise.all([lane(serverShard(1), queue), lane(serverShard(2), queue)]);
// Each failed suite's own last lines: those of the lane would be the suites it ran after the failure.
const failed = lanes.flat();
for (const suite of failed) {
  console.error(
    `\n=== ${suite.name} failed (exit ${suite.code}); its failure lines, then its last lines ===`,
  );
  console.error(suite.kept.join('\n'));
  console.error('--- last lines ---');
  console.error(suite.tail.join('\n'));
}
process.exit(failed[0]?.code ?? 0);
