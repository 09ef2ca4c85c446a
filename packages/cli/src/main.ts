import { readEnv } from './env.ts';
import { run } from './program.ts';

// The bin's entry: the only place that touches process.argv, the streams and the exit status.

// A reader that stops early (`connector-cli --help | head`) closes the pipe: that ends the output, not in a crash.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
}

const status = await run(process.argv.slice(2), {
  env: readEnv(),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
process.exitCode = status;
