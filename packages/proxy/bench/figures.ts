/** The shape every bench writes to bench/results/<name>.json (aggregated into bench/REPORT.md). */
export type Figure = {
  label: string;
  value: number;
  unit: string;
  anchor?: { label: string; value: number };
  ratio?: number;
  target?: string;
  met?: boolean;
};

export type BenchResult = { name: string; figures: Figure[] };

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** A figure compared with an anchor: `ratio` is value / anchor. */
export const compared = (
  label: string,
  value: number,
  unit: string,
  anchor: { label: string; value: number },
  goal?: { target: string; met: boolean },
): Figure => ({
  label,
  value: round(value),
  unit,
  anchor: { label: anchor.label, value: round(anchor.value) },
  ratio: anchor.value === 0 ? 0 : round(value / anchor.value, 3),
  ...(goal ?? {}),
});

export const plain = (label: string, value: number, unit: string): Figure => ({
  label,
  value: round(value),
  unit,
});
