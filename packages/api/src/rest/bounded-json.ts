import { formatPath, ServiceError, ValidationError } from '@platform/core';
import { Tokenizer, TokenParser, TokenType } from '@streamparser/json';

/** What a request body may hold (docs/errors.md, "Limits"): the work of parsing and checking it is bounded by it. */
export type JsonLimits = {
  /** JSON values, object keys included: `{"a":1}` holds three. */
  readonly maxValues: number;
  /** Levels of arrays and objects inside a top-level field (a body's root object is not counted). */
  readonly maxDepth: number;
};

/** An invalid JSON text: the reader answers 400 naming `body`. */
export class NotJsonError extends Error {}

const NUMBER_MESSAGE =
  'a number JSON in JavaScript cannot keep exactly: beyond ±1.8e308, a non-zero number that rounds to 0, or an integer beyond ±9007199254740991 (free-form JSON, such as the content of a template, may carry it as a string; a number field takes none)';

/**
 * Whether a JSON number's text keeps its value as a JavaScript number: finite, not a non-zero that underflows to
 * 0, and an integer (no fraction, no exponent) within ±(2^53 − 1), beyond which integers lose digits silently.
 */
export const keepsJsonNumber = (text: string): boolean => {
  const value = Number(text);
  if (!Number.isFinite(value)) return false;
  const mantissa = text.split(/[eE]/, 1)[0] ?? '';
  if (value === 0 && /[1-9]/.test(mantissa)) return false;
  return !/^-?\d+$/.test(text) || Number.isSafeInteger(value);
};

/** Made once, not per parser: a class per request would keep V8 from ever optimizing the tokenizer. */
class NumberCheckingTokenizer extends Tokenizer {
  checkNumber: (text: string) => void = () => undefined;
  // The library's hook for numbers, given their text as it appeared in the stream.
  protected override parseNumber(text: string): number {
    this.checkNumber(text);
    return Number(text);
  }
}

type Frame = { object: boolean; key: string | number | undefined; expectKey: boolean };

/**
 * A JSON parser fed chunk by chunk that stops as soon as the text breaks a limit: more values than `maxValues`
 * (413), a field nested deeper than `maxDepth` (400 naming that field) or a number JavaScript cannot keep (400
 * naming its path, docs/errors.md). The limits are judged on the tokens as they come, so no work is spent past
 * them, and nothing is walked again once the value is built.
 */
export const createBoundedParser = (limits: JsonLimits) => {
  const tokenizer = new NumberCheckingTokenizer({ stringBufferSize: 64 * 1024, numberBufferSize: 64 });
  const parser = new TokenParser({ paths: ['$'], keepStack: false });
  const stack: Frame[] = [];
  let values = 0;
  let failure: unknown;
  let result: { value: unknown } | undefined;

  /**
   * Where the parse is: the key or index of every open container. Inside an array body, `body[i]…`, as the checks of
   * the parsed value name its entries (docs/errors.md).
   */
  const path = () => {
    const at = formatPath(stack.flatMap((f) => (f.key === undefined ? [] : [f.key])));
    return at === '' ? 'body' : stack[0]?.object === false ? `body${at}` : at;
  };
  const fail = (error: unknown) => {
    failure ??= error;
    throw error;
  };
  const count = () => {
    values += 1;
    if (values > limits.maxValues) {
      fail(
        new ServiceError(
          'PAYLOAD_TOO_LARGE',
          `The request body holds more than ${limits.maxValues} JSON values (keys included), the most this endpoint accepts.`,
          { errors: { body: [`more than ${limits.maxValues} JSON values`] } },
        ),
      );
    }
  };
  const open = (object: boolean) => {
    count();
    stack.push({ object, key: object ? undefined : 0, expectKey: object });
    // The root object of a body is not counted: its fields may nest `maxDepth` levels.
    const rootIsObject = stack[0]?.object === true;
    if (stack.length - (rootIsObject ? 1 : 0) > limits.maxDepth) {
      const field = rootIsObject ? String(stack[0]?.key ?? 'body') : 'body';
      fail(
        new ValidationError(`${field} is nested deeper than ${limits.maxDepth} levels.`, {
          [field]: [`at most ${limits.maxDepth} levels of nesting`],
        }),
      );
    }
  };

  tokenizer.checkNumber = (text) => {
    if (keepsJsonNumber(text)) return;
    const name = path();
    fail(
      new ValidationError(`${name} is a number JavaScript cannot keep exactly.`, {
        [name]: [NUMBER_MESSAGE],
      }),
    );
  };
  tokenizer.onToken = (info) => {
    const frame = stack.at(-1);
    switch (info.token) {
      case TokenType.LEFT_BRACE:
        open(true);
        break;
      case TokenType.LEFT_BRACKET:
        open(false);
        break;
      case TokenType.RIGHT_BRACE:
      case TokenType.RIGHT_BRACKET:
        stack.pop();
        break;
      case TokenType.COMMA:
        if (frame?.object) frame.expectKey = true;
        else if (frame) frame.key = (frame.key as number) + 1;
        break;
      case TokenType.STRING:
        count();
        if (frame?.object && frame.expectKey) {
          frame.key = info.value as string;
          frame.expectKey = false;
        }
        break;
      case TokenType.COLON:
        break;
      default:
        count();
    }
    parser.write(info);
  };
  parser.onValue = ({ value, stack: above }) => {
    if (above.length === 0) result = { value };
  };
  const onError = (error: Error) => {
    failure ??= new NotJsonError(error.message);
  };
  tokenizer.onError = onError;
  parser.onError = onError;
  // A closed tokenizer would complain of a write after its end: the parse is over either way.
  parser.onEnd = () => undefined;

  return {
    /** Feeds one chunk; throws the first broken limit or syntax error. */
    write(chunk: Uint8Array | string) {
      if (failure) throw failure;
      try {
        tokenizer.write(chunk);
      } catch (error) {
        failure ??= error;
      }
      if (failure) throw failure;
    },
    /** Ends the text and returns its value. */
    end(): unknown {
      if (failure) throw failure;
      if (!tokenizer.isEnded) {
        try {
          tokenizer.end();
        } catch (error) {
          failure ??= error;
        }
      }
      if (failure) throw failure;
      if (!result) throw new NotJsonError('incomplete JSON');
      return result.value;
    },
  };
};
