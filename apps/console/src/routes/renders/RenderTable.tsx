import type { ChartGroup } from '../../components/RenderChart.tsx';
import { count } from '../../format.ts';

/**
 * The chart's numbers: one row per group, renders and watermarked renders per series, and the totals summed from
 * those cells (so they equal the API's totals only when the chart shows every render).
 */
export const RenderTable = ({
  id,
  caption,
  groups,
  series,
}: {
  id: string;
  caption: string;
  groups: ChartGroup[];
  series: string[];
}) => {
  const totals = groups.map((group) => ({
    renders: group.values.reduce((t, v) => t + v.plain, 0),
    watermarked: group.values.reduce((t, v) => t + v.watermarked, 0),
  }));
  const cell = (group: ChartGroup, name: string) => group.values.find((v) => v.series === name);
  const sum = (pick: (t: { renders: number; watermarked: number }) => number) =>
    totals.reduce((total, t) => total + pick(t), 0);
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a wide table scrolls sideways; keyboard users scroll it once focused.
    <section className="table-wrap" tabIndex={0} aria-labelledby={`${id}-caption`}>
      <table id={id} className="render-table">
        <caption id={`${id}-caption`}>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            {series.map((name) => (
              <th scope="col" key={name} colSpan={2}>
                {name}
              </th>
            ))}
            <th scope="col">Total renders</th>
            <th scope="col">Total watermarked</th>
          </tr>
          <tr>
            <td />
            {series.map((name) => [
              <th scope="col" key={`${name}-r`} className="sub">
                renders
              </th>,
              <th scope="col" key={`${name}-w`} className="sub">
                watermarked
              </th>,
            ])}
            <td />
            <td />
          </tr>
        </thead>
        <tbody>
          {groups.map((group, g) => (
            <tr key={group.key} data-group={group.key}>
              <th scope="row">{group.label}</th>
              {series.map((name) => [
                <td key={`${name}-r`} className="num">
                  {count(cell(group, name)?.plain ?? 0)}
                </td>,
                <td key={`${name}-w`} className="num">
                  {count(cell(group, name)?.watermarked ?? 0)}
                </td>,
              ])}
              <td className="num" data-total="renders">
                {count(totals[g]?.renders ?? 0)}
              </td>
              <td className="num" data-total="watermarked">
                {count(totals[g]?.watermarked ?? 0)}
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total</th>
            {series.map((name) => [
              <td key={`${name}-r`} className="num">
                {count(groups.reduce((t, g) => t + (cell(g, name)?.plain ?? 0), 0))}
              </td>,
              <td key={`${name}-w`} className="num">
                {count(groups.reduce((t, g) => t + (cell(g, name)?.watermarked ?? 0), 0))}
              </td>,
            ])}
            <td className="num" data-sum="renders">
              {count(sum((t) => t.renders))}
            </td>
            <td className="num" data-sum="watermarked">
              {count(sum((t) => t.watermarked))}
            </td>
          </tr>
        </tfoot>
      </table>
    </section>
  );
};
