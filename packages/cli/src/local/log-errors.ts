import type { Output } from '../output.ts';

/** Lines a local run prints of a connector's `runtime.logError` messages before it only counts them. */
const SHOWN = 20;

/**
 * A connector's `runtime.logError` messages in a local run, on stderr (the platform's server logs them; here the
 * developer is the reader), redacted as every line is: the first SHOWN as they come, then how many more there were,
 * so that `stress` does not drown its result in one line per call.
 */
export const logErrorLines = (out: Output) => {
  let said = 0;
  return {
    onLogError: (message: string): void => {
      said += 1;
      if (said <= SHOWN) out.note(`logError: ${message}`);
    },
    /** Says how many messages were not shown, if any. */
    done: (): void => {
      if (said > SHOWN) out.note(`logError: ${said - SHOWN} more messages not shown`);
    },
  };
};
