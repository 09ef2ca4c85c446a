/**
 * Spellings the platform's own connector CLI uses, rewritten before commander parses the line (docs/connector-cli.md).
 * `-au`, `-at` and `-ro` are two letters after one dash, which commander (like getopt) would read as a bundle
 * (`-a -u`); `--authUsage` and `--authType` are this CLI's earlier long names, kept working.
 */
export const flagSpellings: Readonly<Record<string, string>> = {
  '-au': '--usage',
  '-at': '--type',
  '-ro': '--runtimeOption',
  '--authUsage': '--usage',
  '--authType': '--type',
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
    const long = flagSpellings[flag];
    out.push(long === undefined ? arg : `${long}${eq === -1 ? '' : arg.slice(eq)}`);
  }
  return out;
};

/** For help output: the two-letter spelling shown next to a long option (`-au, --usage`). */
export const shortSpellingOf = (long: string): string | undefined =>
  Object.entries(flagSpellings).find(
    ([spelling, value]) => value === long && !spelling.startsWith('--'),
  )?.[0];
