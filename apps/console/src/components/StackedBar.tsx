import { seriesColor } from '../palette.ts';

/** One horizontal bar of parts (decorative: the table beside it holds the numbers). */
export const StackedBar = ({ parts }: { parts: { name: string; value: number }[] }) => {
  const total = parts.reduce((sum, part) => sum + part.value, 0);
  return (
    <div className="stacked-bar" aria-hidden="true">
      {total > 0 &&
        parts.map((part, i) => (
          <span
            key={part.name}
            title={part.name}
            style={{ width: `${(part.value / total) * 100}%`, background: seriesColor(i) }}
          />
        ))}
    </div>
  );
};

export const Legend = ({ names, hatched }: { names: string[]; hatched?: boolean }) => (
  <ul className="legend">
    {names.map((name, i) => (
      <li key={name}>
        <span className="swatch" style={{ background: seriesColor(i, name) }} aria-hidden="true" />
        {name}
      </li>
    ))}
    {hatched && (
      <li>
        <span className="swatch hatched" aria-hidden="true" />
        watermarked renders (hatched)
      </li>
    )}
  </ul>
);
