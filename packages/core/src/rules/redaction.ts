/**
 * What stands in a connector's words for a secret the platform holds for it (docs/connector-runtime.md "Redaction").
 * Differs from the CLI's SECRET_MASK on purpose: a reader tells a redacted secret from a masked setting.
 */
export const REDACTED = '***';

/** The most bytes (UTF-8) of a text a connector's words reach that the activity keeps: its error, each logError. */
export const ACTIVITY_TEXT_MAX_BYTES = 1024;

/** A prefix of a secret this long or longer at the very end of a text is taken for a secret cut short. */
const CUT_SECRET_MIN = 4;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * `text` cut to at most `maxBytes` bytes of UTF-8 (never in the middle of a character), ending in `…` when cut. Cheap
 * for a text of megabytes: at most `maxBytes` characters are encoded.
 */
export const boundText = (text: string, maxBytes: number = ACTIVITY_TEXT_MAX_BYTES): string => {
  // Each UTF-16 unit is at most 3 bytes of UTF-8: a text this short always fits.
  if (text.length * 3 <= maxBytes) return text;
  const head = encoder.encode(text.slice(0, maxBytes));
  if (head.byteLength <= maxBytes && text.length <= maxBytes) return text;
  const ellipsis = '…';
  const room = maxBytes - encoder.encode(ellipsis).byteLength;
  let end = room;
  // Back to the first byte of a character (UTF-8 continuation bytes are 10xxxxxx).
  while (end > 0 && ((head[end] ?? 0) & 0xc0) === 0x80) end--;
  return decoder.decode(head.subarray(0, end)) + ellipsis;
};

/** The spellings a secret takes in a connector's words: as it is, URL-encoded, escaped inside a JSON string. */
const spellingsOf = (secret: string): string[] => {
  const spellings = [secret, JSON.stringify(secret).slice(1, -1)];
  try {
    spellings.push(encodeURIComponent(secret));
  } catch {
    // An unpaired surrogate has no URL-encoded spelling; its other spellings stand.
  }
  return spellings;
};

export type Redactor = (text: string) => string;

/**
 * Replaces every secret of `secrets` (each in every spelling of `spellingsOf`) by `***`, the longest first so that
 * a secret containing another leaves nothing of itself behind; a text that ends in the first characters of a secret
 * (a message cut short before it reached here) has them replaced too. Empty values are ignored.
 */
export const createRedactor = (secrets: Iterable<string>): Redactor => {
  const values = [...new Set([...secrets].filter((s) => s.length > 0).flatMap(spellingsOf))].sort(
    (a, b) => b.length - a.length,
  );
  if (values.length === 0) return (text) => text;
  return (text) => {
    let clean = text;
    for (const value of values) if (clean.includes(value)) clean = clean.split(value).join(REDACTED);
    for (const value of values) {
      // Where the end of the text may begin a secret cut short: its first character, within the secret's length.
      const first = value.charAt(0);
      for (let at = clean.indexOf(first, Math.max(0, clean.length - value.length + 1)); at !== -1; ) {
        const tail = clean.slice(at);
        if (tail.length < CUT_SECRET_MIN) break;
        if (value.startsWith(tail)) {
          clean = clean.slice(0, at) + REDACTED;
          break;
        }
        at = clean.indexOf(first, at + 1);
      }
    }
    return clean;
  };
};
