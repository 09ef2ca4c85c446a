import { useId, useState } from 'react';
import { Link } from 'wouter';
import { useEnvironmentDetails, useEnvironments } from '../../api/environments.ts';
import { PageHeading } from '../../components/PageHeading.tsx';
import { Legend, StackedBar } from '../../components/StackedBar.tsx';
import { Empty, ErrorState, Loading } from '../../components/States.tsx';
import { bytes } from '../../format.ts';

const PARTS = ['assets', 'documents', 'fonts', 'cache', 'backup', 'other'] as const;

/** A subscription's environments: type, region, storage in six parts (bar and table), and a name search. */
export const EnvironmentsPage = ({ subscriptionId }: { subscriptionId: string }) => {
  const id = useId();
  const [search, setSearch] = useState('');
  const environments = useEnvironments(subscriptionId, search.trim());
  const details = useEnvironmentDetails((environments.data ?? []).map((e) => e.guid));
  const detailOf = (guid: string) => details.find((d) => d.data?.guid === guid)?.data;
  return (
    <>
      <PageHeading title="Environments">Environments</PageHeading>
      <div className="controls">
        <label>
          Search by name{' '}
          <input type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
        </label>
      </div>
      {environments.isPending ? (
        <Loading what="environments" />
      ) : environments.isError ? (
        <ErrorState error={environments.error} what="environments" />
      ) : environments.data.length === 0 ? (
        <Empty>
          {search ? `No environment matches “${search}”.` : 'This subscription has no environments.'}
        </Empty>
      ) : (
        <>
          <Legend names={[...PARTS]} />
          <div className="table-wrap">
            <table aria-describedby={`${id}-parts`}>
              <caption>Environments</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Type</th>
                  <th scope="col">Region</th>
                  <th scope="col">Storage</th>
                  <th scope="col">Connectors</th>
                </tr>
              </thead>
              <tbody>
                {environments.data.map((e) => {
                  const detail = detailOf(e.guid);
                  return (
                    <tr key={e.guid}>
                      <th scope="row">
                        {e.name}
                        {e.technicalName && <div className="muted">{e.technicalName}</div>}
                      </th>
                      <td>{e.type}</td>
                      <td>{e.region ?? '—'}</td>
                      <td className="storage">
                        {detail && (
                          <StackedBar
                            parts={PARTS.map((name) => ({ name, value: detail.usedStorageDetail[name] }))}
                          />
                        )}
                        {bytes(e.usedStorage)}
                      </td>
                      <td>
                        <Link
                          href={`/subscriptions/${subscriptionId}/environments/${e.technicalName ?? e.guid}/connectors`}
                        >
                          Connectors<span className="visually-hidden"> of {e.name}</span>
                        </Link>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <div className="table-wrap">
            <table id={`${id}-parts`}>
              <caption>Storage by part</caption>
              <thead>
                <tr>
                  <th scope="col">Environment</th>
                  {PARTS.map((part) => (
                    <th scope="col" key={part}>
                      {part}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {environments.data.map((e) => {
                  const detail = detailOf(e.guid);
                  return (
                    <tr key={e.guid}>
                      <th scope="row">{e.name}</th>
                      {PARTS.map((part) => (
                        <td key={part} className="num">
                          {detail ? bytes(detail.usedStorageDetail[part]) : '…'}
                        </td>
                      ))}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </>
      )}
    </>
  );
};
