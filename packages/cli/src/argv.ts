/**
 * The specification's flags `-au` and `-at` are two letters after one dash, which commander (like getopt)
 * would read as the bundle `-a -u`. They are rewritten to their long forms before commander sees them.
 * `-e` and `-b` are ordinary short flags and need no rewriting.
 */
export const multiLetterFlags: Readonly<Record<string, string>> = {
  '-au': '--authUsage',
  '-at': '--authType',
};

export const normalizeArgv = (args: readonly string[]): string[] => {
  const out: string[] = [];
  let afterTerminator = false;
  for (const arg of args) {
    if (afterTerminator || arg === '--') {
      afterTerminator = true;
      out.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    const long = multiLetterFlags[flag];
    out.push(long === undefined ? arg : `${long}${eq === -1 ? '' : arg.slice(eq)}`);
  }
  return out;
};

/** For help output: the short spelling shown next to a long option. */
export const shortSpellingOf = (long: string): string | undefined =>
  Object.entries(multiLetterFlags).find(([, value]) => value === long)?.[0];
