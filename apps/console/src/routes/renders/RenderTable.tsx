import type { ChartGroup } from '../../components/RenderChart.tsx';
import { count } from '../../format.ts';

type Column = {
  key: string;
  header: string;
  sub?: string;
  value: (group: ChartGroup) => number;
  total?: string;
};

/**
 * The chart's numbers: one row per group, renders (and watermarked renders) per series, and the totals summed from
 * those cells, so they equal the API's totals only when the chart shows every render.
 */
export const RenderTable = ({
  id,
  caption,
  groups,
  series,
  watermarked = true,
}: {
  id: string;
  caption: string;
  groups: ChartGroup[];
  series: string[];
  /** False where nothing is watermarked by nature (renders by kind): those columns are left out. */
  watermarked?: boolean;
}) => {
  const cell = (group: ChartGroup, name: string) => group.values.find((v) => v.series === name);
  const columns: Column[] = [
    ...series.flatMap((name): Column[] => [
      { key: `${name}-r`, header: name, sub: 'renders', value: (g) => cell(g, name)?.plain ?? 0 },
      ...(watermarked
        ? [
            {
              key: `${name}-w`,
              header: name,
              sub: 'watermarked',
              value: (g: ChartGroup) => cell(g, name)?.watermarked ?? 0,
            },
          ]
        : []),
    ]),
    {
      key: 'total-r',
      header: 'Total renders',
      total: 'renders',
      value: (g) => g.values.reduce((t, v) => t + v.plain, 0),
    },
    ...(watermarked
      ? [
          {
            key: 'total-w',
            header: 'Total watermarked',
            total: 'watermarked',
            value: (g: ChartGroup) => g.values.reduce((t, v) => t + v.watermarked, 0),
          },
        ]
      : []),
  ];
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a wide table scrolls sideways; keyboard users scroll it once focused.
    <section className="table-wrap" tabIndex={0} aria-labelledby={`${id}-caption`}>
      <table id={id} className="render-table">
        <caption id={`${id}-caption`}>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            {columns.map((c) => (
              <th scope="col" key={c.key}>
                {c.header}
                {c.sub && watermarked && <span className="sub">{c.sub}</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {groups.map((group) => (
            <tr key={group.key} data-group={group.key}>
              <th scope="row">{group.label}</th>
              {columns.map((c) => (
                <td key={c.key} className="num" data-total={c.total}>
                  {count(c.value(group))}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total</th>
            {columns.map((c) => (
              <td key={c.key} className="num" data-sum={c.total}>
                {count(groups.reduce((t, g) => t + c.value(g), 0))}
              </td>
            ))}
          </tr>
        </tfoot>
      </table>
    </section>
  );
};
