import { useId, useState } from 'react';
import { useEnvironmentRenders } from '../../api/environment-renders.ts';
import { type RenderQuery, useSubscriptionRenders } from '../../api/subscription-renders.ts';
import { useSubscription } from '../../api/subscriptions.ts';
import { PageHeading } from '../../components/PageHeading.tsx';
import { type ChartGroup, RenderChart } from '../../components/RenderChart.tsx';
import { Empty, ErrorState, Loading } from '../../components/States.tsx';
import { groupLabel } from '../../format.ts';
import { RenderControls } from './RenderControls.tsx';
import { RenderTable } from './RenderTable.tsx';
import { seriesOf } from './series.ts';

const isEmpty = (groups: ChartGroup[]) =>
  groups.every((g) => g.values.every((v) => v.plain + v.watermarked === 0));

/** One environment's renders by kind (renderDetail), as a chart and its table. */
const EnvironmentDetail = ({ subscriptionId, query }: { subscriptionId: string; query: RenderQuery }) => {
  const id = useId();
  const subscription = useSubscription(subscriptionId);
  const environments = subscription.data?.environments ?? [];
  const [chosen, setChosen] = useState<string>();
  const environmentId = chosen ?? environments[0]?.guid;
  const renders = useEnvironmentRenders(environmentId, query);
  const name = environments.find((e) => e.guid === environmentId)?.name ?? 'the environment';
  const groups: ChartGroup[] = (renders.data ?? []).map((group) => ({
    key: group.date,
    label: groupLabel(group.date, query.groupBy),
    values: group.renderDetail.map((kind) => ({ series: kind.name, plain: kind.renders, watermarked: 0 })),
  }));
  const series = seriesOf(groups);
  return (
    <section aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Renders by kind in one environment</h2>
      <label>
        Environment{' '}
        <select value={environmentId ?? ''} onChange={(event) => setChosen(event.target.value)}>
          {environments.map((e) => (
            <option key={e.guid} value={e.guid}>
              {e.name ?? e.guid}
            </option>
          ))}
        </select>
      </label>
      {environmentId === undefined ? (
        <Empty>This subscription has no environments.</Empty>
      ) : renders.isPending ? (
        <Loading what="renders by kind" />
      ) : renders.isError ? (
        <ErrorState error={renders.error} what="this environment's renders" />
      ) : isEmpty(groups) ? (
        <Empty>No renders in {name} in this range.</Empty>
      ) : (
        <>
          <RenderChart
            title={`Renders by kind in ${name}`}
            groups={groups}
            series={series}
            describedBy={`${id}-table`}
          />
          <RenderTable
            id={`${id}-table`}
            caption={`Renders by kind in ${name}`}
            groups={groups}
            series={series}
            watermarked={false}
          />
        </>
      )}
    </section>
  );
};

/** Render usage of a subscription: stacked by environment, top N and Others, watermarked hatched; and its table. */
export const RendersPage = ({ subscriptionId }: { subscriptionId: string }) => {
  const id = useId();
  const [query, setQuery] = useState<RenderQuery>({ groupBy: 'year', top: 5 });
  const renders = useSubscriptionRenders(subscriptionId, query);
  const groups: ChartGroup[] = (renders.data ?? []).map((group) => ({
    key: group.date,
    label: groupLabel(group.date, query.groupBy),
    values: group.environments.map((e) => ({
      series: e.name ?? 'Unnamed',
      plain: e.renders,
      watermarked: e.watermarkedRenders,
    })),
  }));
  const series = seriesOf(groups);
  const title = `Renders per ${query.groupBy === 'year' ? 'month' : 'day'} by environment`;
  return (
    <>
      <PageHeading title="Render usage">Render usage</PageHeading>
      <RenderControls query={query} onChange={setQuery} />
      {renders.isPending ? (
        <Loading what="render usage" />
      ) : renders.isError ? (
        <ErrorState error={renders.error} what="render usage" />
      ) : groups.length === 0 || isEmpty(groups) ? (
        <Empty>No renders in this range.</Empty>
      ) : (
        <section aria-label={title} aria-busy={renders.isFetching}>
          <RenderChart title={title} groups={groups} series={series} describedBy={`${id}-table`} />
          <RenderTable id={`${id}-table`} caption={title} groups={groups} series={series} />
        </section>
      )}
      <EnvironmentDetail subscriptionId={subscriptionId} query={query} />
    </>
  );
};
