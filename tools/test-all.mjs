#!/usr/bin/env node
/**
 * Every package's tests, in two lanes side by side: the server's suite (the longest by far, mostly waiting on child
 * processes, timers and sockets) from the first second, and the other packages one after another beside it. One
 * lane for everything took half again as long; more lanes than the machine's two cores would put the suites'
 * timing checks at risk. Exits with the first failing lane's code, after both have ended.
 */
import { spawn } from 'node:child_process';

const turbo = (...args) =>
  new Promise((resolve) => {
    const child = spawn('npx', ['turbo', 'run', 'test', ...args], { stdio: 'inherit' });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
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

const codes = await Promise.all([
  turbo('--filter=@platform/server'),
  turbo('--filter=!@platform/server', '--concurrency=1'),
]);
process.exit(codes.find((code) => code !== 0) ?? 0);
