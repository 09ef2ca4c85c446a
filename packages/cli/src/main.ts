import { readEnv } from './env.ts';
import { run } from './program.ts';

// The bin's entry: the only place that touches process.argv, the streams and the exit status.
const status = await run(process.argv.slice(2), {
  env: readEnv(),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
process.exitCode = status;
