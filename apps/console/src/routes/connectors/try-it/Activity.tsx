import { ActivityUnavailable, useConnectorActivity } from '../../../api/connector-activity.ts';
import { dateTime } from '../../../format.ts';

/** The connector's recorded invocations, newest first, each with its fetches (no secrets, no query values). */
export const Activity = ({ environment, connectorId }: { environment: string; connectorId: string }) => {
  const activity = useConnectorActivity(environment, connectorId, true);
  return (
    <section aria-label="Activity" className="try-activity">
      <h5>
        Activity{' '}
        <button type="button" onClick={() => void activity.refetch()} disabled={activity.isFetching}>
          Refresh
        </button>
      </h5>
      {activity.isPending ? (
        <p className="muted">Loading activity…</p>
      ) : activity.isError ? (
        <p className="muted">
          {activity.error instanceof ActivityUnavailable
            ? `No activity to show: ${activity.error.message}`
            : 'The activity could not be loaded.'}
        </p>
      ) : activity.data.length === 0 ? (
        <p className="muted">No invocations recorded yet.</p>
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
            {activity.data.map((entry, i) => (
              <tr key={entry.id ?? i} data-activity>
                <td>{entry.at ? dateTime(entry.at) : ''}</td>
                <td>{entry.method}</td>
                <td>{entry.usage ?? ''}</td>
                <td>{[entry.status, entry.code ?? entry.error].filter(Boolean).join(' ')}</td>
                <td>{entry.durationMs ?? ''}</td>
                <td className="url">
                  {(entry.fetches ?? [])
                    .map((f) => `${f.method} ${f.url} ${f.status ?? f.error ?? ''}`)
                    .join('\n')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
};
