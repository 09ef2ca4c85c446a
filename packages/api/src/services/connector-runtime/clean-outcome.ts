import { boundText, createRedactor, type Redactor } from '@platform/core';
import type { InvocationOutcome } from './port.ts';

/**
 * Characters of a text read before it is redacted and bounded: a text of megabytes costs no more than a short one.
 * Four times the bytes kept, so a secret that crosses this point lies wholly beyond the 1 KiB that is kept.
 */
const READ_CHARS = 4096;

/** What stands for a text when the secrets to redact it of could not be read (the database unavailable). */
const WITHHELD = '(not shown: the secrets to redact it of could not be read)';

/** The most logError messages of one invocation that reach the log and the activity. */
export const LOG_MESSAGES_MAX = 20;

/**
 * A run's outcome as it may leave the services (docs/connector-runtime.md "Redaction", "Activity is bounded and
 * clean"): every text the connector's words reach (its error, each fetch's URL and error, each logError) with every
 * secret of `secretsOf` replaced by `***` and cut to 1 KiB. Secrets are asked for only when there is such a text.
 */
export const cleanOutcome = async (
  outcome: InvocationOutcome,
  secretsOf: () => Promise<readonly string[]>,
): Promise<InvocationOutcome> => {
  const logs = outcome.logs ?? [];
  if (outcome.error === undefined && outcome.fetches.length === 0 && logs.length === 0) return outcome;
  // Without the list nothing can be redacted: the texts are withheld rather than shown as they are.
  const redact: Redactor = await secretsOf().then(createRedactor, () => () => WITHHELD);
  const clean = (text: string) => boundText(redact(text.slice(0, READ_CHARS)));
  return {
    ...outcome,
    error: outcome.error && { ...outcome.error, message: clean(outcome.error.message) },
    fetches: outcome.fetches.map((fetch) => ({
      ...fetch,
      url: clean(fetch.url),
      ...(fetch.error === undefined ? {} : { error: clean(fetch.error) }),
    })),
    logs: logs.slice(0, LOG_MESSAGES_MAX).map(clean),
  };
};
