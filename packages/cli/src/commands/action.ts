import type { Context } from '../context.ts';

/** How a command's action reaches its context: the program builds the context once options are parsed. */
export type RunAction = (action: (ctx: Context) => Promise<void>) => Promise<void>;
