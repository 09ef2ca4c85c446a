#!/usr/bin/env node
/**
 * Every package's tests, in two lanes side by side, each a sequence of commands. The server's suite is by far the
 * longest (mostly waiting on child processes, timers and sockets) and runs one file at a time on a two-core machine
 * (vitest's default there), so it is split in two shards (vitest `--shard`, files apportioned by a hash of their
 * path), one opening each lane; the other packages follow, apportioned so that both lanes end at about the same time
 * (the proxy's suite after the first shard, the rest after the second). With the whole server suite in one lane and
 * everything else in the other, the first lane ran five minutes longer than the second. More lanes than the
 * machine's two cores would put the suites' timing checks at risk. Exits with the first failing lane's code, after
 * both have ended.
 *
 * The lanes' output is interleaved as it comes, so a failure of the lane that ends first would sit far above the
 * end of the log, where CI systems that keep only the tail never show it. Each failing lane's failures are
 * therefore printed again, last, under a heading naming the lane.
 */
import { spawn } from 'node:child_process';

/** Lines that name a failed test or task in vitest's, Deno's, turbo's and npm's output. */
const FAILURE = /\bFAIL\b|\bFAILED\b|Failed:|ERR!/;
const KEPT = 200;
/** vitest ends a failing run with each failure's assertion and stack, and turbo stops the lane right after. */
const TAIL = 150;

// Colour codes would make the repeated lines hard to read in a plain log; the live output keeps them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching ANSI escape sequences is the point
const plain = (line) => line.replace(/\u001b\[[0-9;]*m/g, '');

/** One command of a lane, its output passed on and its failure lines kept. */
const run = ([command, ...args], kept, tail) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['inherit', 'pipe', 'pipe'] });
    const partial = new Map();
    const take = (chunk, into) => {
      into.write(chunk);
      const lines = ((partial.get(into) ?? '') + chunk.toString()).split('\n');
      partial.set(into, lines.pop() ?? '');
      for (const raw of lines) {
        const line = plain(raw);
        tail.push(line);
        if (tail.length > TAIL) tail.shift();
        if (kept.length < KEPT && FAILURE.test(line)) kept.push(line);
      }
    };
    child.stdout.on('data', (chunk) => take(chunk, process.stdout));
    child.stderr.on('data', (chunk) => take(chunk, process.stderr));
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

/** A lane: its commands one after another, each even after one failed (so that every failure is seen). */
const lane = async (name, commands) => {
  const kept = [];
  const tail = [];
  let failed = 0;
  for (const command of commands) {
    const code = await run(command, kept, tail);
    if (failed === 0) failed = code;
  }
  return { name, code: failed, kept, tail };
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

// The server's shards are run by npm, not turbo: turbo counts the arguments it passes on in the key of every task
// of the run, so each shard typechecked every package again (two and a half minutes). `npm test` typechecked them
// all just before.
const serverShard = (shard) => ['npm', 'run', 'test', '-w', '@platform/server', '--', `--shard=${shard}/2`];
const turbo = (...filters) => ['npx', 'turbo', 'run', 'test', ...filters, '--concurrency=1'];
const lanes = await Promise.all([
  lane("the server's first half and the proxy", [serverShard(1), turbo('--filter=@platform/proxy')]),
  lane("the server's second half and the other packages", [
    serverShard(2),
    turbo('--filter=!@platform/server', '--filter=!@platform/proxy'),
  ]),
]);
for (const lane of lanes) {
  if (lane.code === 0) continue;
  console.error(
    `\n=== the lane of ${lane.name} failed (exit ${lane.code}); its failure lines, then its last lines ===`,
  );
  console.error(lane.kept.join('\n'));
  console.error('--- last lines ---');
  console.error(lane.tail.join('\n'));
}
process.exit(lanes.find((lane) => lane.code !== 0)?.code ?? 0);
