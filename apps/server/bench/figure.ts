/** One measured figure of a bench, as bench/report.ts reads bench/results/<name>.json. */
export type Figure = {
  label: string;
  value: number;
  unit: string;
  anchor?: { label: string; value: number };
  target?: string;
  met?: boolean;
};
