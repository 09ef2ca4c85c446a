import { useId } from 'react';
import { count } from '../format.ts';
import { seriesColor } from '../palette.ts';
import { Legend } from './StackedBar.tsx';

export type ChartGroup = {
  key: string;
  label: string;
  values: { series: string; plain: number; watermarked: number }[];
};

const WIDTH = 760;
const HEIGHT = 280;
const LEFT = 64;
const BOTTOM = 28;
const TOP = 8;

/** 0 and three more round steps above the largest bar. */
const ticksFor = (max: number): number[] => {
  if (max <= 0) return [0];
  const raw = max / 4;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw;
  return Array.from({ length: Math.ceil(max / step) + 1 }, (_, i) => i * step);
};

/**
 * Stacked bars, one per group, one segment per series; watermarked renders hatched in their series' color. An SVG
 * picture only: `describedBy` names the table twin that holds the same numbers.
 */
export const RenderChart = ({
  title,
  groups,
  series,
  describedBy,
}: {
  title: string;
  groups: ChartGroup[];
  series: string[];
  describedBy: string;
}) => {
  const id = useId();
  const totals = groups.map((g) => g.values.reduce((sum, v) => sum + v.plain + v.watermarked, 0));
  const ticks = ticksFor(Math.max(0, ...totals));
  const top = ticks[ticks.length - 1] || 1;
  const plotWidth = WIDTH - LEFT - 8;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = plotWidth / Math.max(groups.length, 1);
  const barWidth = Math.max(slot * 0.7, 2);
  const y = (value: number) => TOP + plotHeight - (value / top) * plotHeight;
  const labelEvery = Math.ceil(groups.length / 12);
  const hasWatermarked = groups.some((g) => g.values.some((v) => v.watermarked > 0));
  const indexOf = new Map(series.map((name, i) => [name, i]));
  return (
    <figure className="chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby={`${id}-title`}
        aria-describedby={describedBy}
      >
        <title id={`${id}-title`}>{title}</title>
        <defs>
          {series.map((name, i) => (
            <pattern
              key={name}
              id={`${id}-hatch-${i}`}
              width="6"
              height="6"
              patternUnits="userSpaceOnUse"
              patternTransform="rotate(45)"
            >
              <rect width="6" height="6" style={{ fill: seriesColor(i, name), opacity: 0.3 }} />
              <rect width="3" height="6" style={{ fill: seriesColor(i, name) }} />
            </pattern>
          ))}
        </defs>
        {ticks.map((tick) => (
          <g key={tick} className="axis">
            <line x1={LEFT} x2={WIDTH - 8} y1={y(tick)} y2={y(tick)} />
            <text x={LEFT - 6} y={y(tick)} dy="0.32em" textAnchor="end">
              {count(tick)}
            </text>
          </g>
        ))}
        {groups.map((group, g) => {
          const x = LEFT + g * slot + (slot - barWidth) / 2;
          let base = 0;
          return (
            <g key={group.key} className="chart-group" data-group={group.key}>
              <title>{`${group.label}: ${count(totals[g])} renders`}</title>
              {group.values.flatMap((value) => {
                const i = indexOf.get(value.series) ?? 0;
                const parts = [
                  { kind: 'plain', amount: value.plain, fill: seriesColor(i, value.series) },
                  { kind: 'watermarked', amount: value.watermarked, fill: `url(#${id}-hatch-${i})` },
                ];
                return parts
                  .filter((part) => part.amount > 0)
                  .map((part) => {
                    const from = base;
                    base += part.amount;
                    return (
                      <rect
                        key={`${value.series}-${part.kind}`}
                        x={x}
                        width={barWidth}
                        y={y(base)}
                        height={Math.max(y(from) - y(base), 0)}
                        style={{ fill: part.fill }}
                      />
                    );
                  });
              })}
              {g % labelEvery === 0 && (
                <text className="axis-label" x={x + barWidth / 2} y={HEIGHT - 8} textAnchor="middle">
                  {group.label}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption>
        <Legend names={series} hatched={hasWatermarked} />
      </figcaption>
    </figure>
  );
};
