/**
 * A method's outcome crosses from the sandbox as JSON text. Before the host parses it: at most 10 MiB, nested at most
 * 1,000 levels deep. Past either, the call is refused at once (CONNECTOR_ERROR naming the rule), never parsed, so an
 * odd result costs the host nothing more than reading its text.
 */
import { RuntimeError } from './errors.ts';

export const MAX_RESULT_CHARS = 10 * 1024 * 1024;
export const MAX_RESULT_DEPTH = 1000;

const OPEN_BRACE = 123;
const OPEN_BRACKET = 91;
const CLOSE_BRACE = 125;
const CLOSE_BRACKET = 93;
const QUOTE = 34;
const BACKSLASH = 92;

/** The deepest nesting of arrays and objects in JSON text (strings skipped). */
const depthOf = (json: string): number => {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < json.length; i++) {
    const code = json.charCodeAt(i);
    if (code === QUOTE) {
      for (i++; i < json.length; i++) {
        const inner = json.charCodeAt(i);
        if (inner === BACKSLASH) i++;
        else if (inner === QUOTE) break;
      }
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth--;
    }
  }
  return deepest;
};

export const checkResult = (json: string): unknown => {
  if (json.length > MAX_RESULT_CHARS) {
    throw new RuntimeError(
      'CONNECTOR_ERROR',
      `the connector's result is larger than ${MAX_RESULT_CHARS / 1048576} MiB as JSON; a result may not be`,
    );
  }
  // The outcome's envelope ({value: ...}) is one level of its own.
  if (depthOf(json) > MAX_RESULT_DEPTH + 1) throw tooDeep();
  return JSON.parse(json);
};

/** A result nested past the rule: told by its text, or by the sandbox's walk before it serializes one far deeper. */
export const tooDeep = (): RuntimeError =>
  new RuntimeError(
    'CONNECTOR_ERROR',
    `the connector's result is nested deeper than ${MAX_RESULT_DEPTH} levels; a result may not be`,
  );
