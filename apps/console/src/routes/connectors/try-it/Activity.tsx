import { useConnectorActivity } from '../../../api/connector-activity.ts';
import { ErrorState } from '../../../components/States.tsx';
import { dateTime } from '../../../format.ts';

/** The connector's recorded invocations, newest first, each with its fetches (no secrets, no query values). */
export const Activity = ({ environment, connectorId }: { environment: string; connectorId: string }) => {
  const activity = useConnectorActivity(environment, connectorId);
  return (
    <section aria-label="Activity" className="try-activity">
      <h4>
        Activity{' '}
        <button type="button" onClick={() => void activity.refetch()} disabled={activity.isFetching}>
          Refresh
        </button>
      </h4>
      {activity.isPending ? (
        <p className="muted">Loading activity…</p>
      ) : activity.isError ? (
        <ErrorState error={activity.error} what="the connector's activity" />
      ) : activity.data.data.length === 0 ? (
        <p className="muted">No invocations recorded yet (runs through the platform's run routes are).</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Method</th>
              <th scope="col">Usage</th>
              <th scope="col">Status</th>
              <th scope="col">ms</th>
              <th scope="col">Fetches</th>
            </tr>
          </thead>
          <tbody>
            {activity.data.data.map((entry) => (
              <tr key={`${entry.at}-${entry.method}-${entry.durationMs}`} data-activity>
                <td>{dateTime(entry.at)}</td>
                <td>{entry.method}</td>
                <td>{entry.usage}</td>
                <td>{[entry.status, entry.code].filter((part) => part !== null).join(' ')}</td>
                <td>{Math.round(entry.durationMs)}</td>
                <td className="url">
                  {entry.fetches.map((f) => `${f.method} ${f.url} ${f.status ?? f.error ?? ''}`).join('\n')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
};
