/**
 * Levenshtein distance, ignoring case (a key differing only in case is the closest of all).
 * Hand-written rather than a dependency: `@platform/core` depends on zod alone so that it runs on Deno unchanged.
 */
const distance = (a: string, b: string): number => {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (x[i - 1] === y[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[y.length] ?? 0;
};

/**
 * The known key a misspelt one most likely meant (`tecnicalName` → `technicalName`), or undefined when none is
 * close: at most a third of the key's length in edits, at least 2 (so short keys still match a typo).
 */
export const closestKey = (key: string, known: readonly string[]): string | undefined => {
  const limit = Math.max(2, Math.floor(key.length / 3));
  let best: { key: string; distance: number } | undefined;
  for (const candidate of known) {
    const d = distance(key, candidate);
    if (d <= limit && (best === undefined || d < best.distance)) best = { key: candidate, distance: d };
  }
  return best?.key;
};
