#!/usr/bin/env node
/**
 * Every package's tests, in two lanes side by side: the server's suite (the longest by far, mostly waiting on child
 * processes, timers and sockets) from the first second, and the other packages one after another beside it. One
 * lane for everything took half again as long; more lanes than the machine's two cores would put the suites'
 * timing checks at risk. Exits with the first failing lane's code, after both have ended.
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

const turbo = (name, ...args) =>
  new Promise((resolve) => {
    const child = spawn('npx', ['turbo', 'run', 'test', ...args], { stdio: ['inherit', 'pipe', 'pipe'] });
    const kept = [];
    const tail = [];
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
    child.on('close', (code, signal) => resolve({ name, code: code ?? (signal ? 1 : 0), kept, tail }));
  });

// Suites in both lanes start the server's and connector-cli's bins, and their global setups rebuild those first
// (tools/build-for-tests.ts: delete dist/, bundle again). One lane's rebuild under the other lane's feet (the
// packaging test packing connector-cli's dist/ while the cli suite rebuilt it) failed a run. So they are built once
// here, before either lane starts, and the setups are told so.
const built = await new Promise((resolve) => {
  const child = spawn('npm', ['run', '--silent', 'build', '-w', '@platform/cli', '-w', '@platform/server'], {
    stdio: 'inherit',
  });
  child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
});
if (built !== 0) process.exit(built);
process.env.TEST_PROGRAMS_BUILT = '1';

const lanes = await Promise.all([
  turbo('the server', '--filter=@platform/server'),
  turbo('the other packages', '--filter=!@platform/server', '--concurrency=1'),
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
