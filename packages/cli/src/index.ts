export { normalizeArgv } from './argv.ts';
export { type CliEnv, readEnv } from './env.ts';
export { CliError, type CliErrorCode, exitCodeOf, ServerError, UsageError } from './errors.ts';
export { maskSecrets } from './mask.ts';
export { createProgram, type Deps, run } from './program.ts';
export { type Session, sessionPath } from './session.ts';
export { resolveTarget, type Target } from './target.ts';
