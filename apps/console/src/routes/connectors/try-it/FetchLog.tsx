import type { CallRecord } from './use-sandbox.ts';

/** Every call of this panel, newest first, with each fetch it made through the proxy and what it said with logError. */
export const FetchLog = ({ calls }: { calls: CallRecord[] }) => (
  <section aria-label="Fetch log" className="try-log">
    <h4>Calls and fetches</h4>
    {calls.length === 0 ? (
      <p className="muted">Nothing run yet.</p>
    ) : (
      <table>
        <thead>
          <tr>
            <th scope="col">Call</th>
            <th scope="col">Fetch</th>
            <th scope="col">Status</th>
            <th scope="col">Bytes</th>
            <th scope="col">ms</th>
          </tr>
        </thead>
        <tbody>
          {calls.flatMap((call) => [
            <tr key={`call-${call.id}`} className="try-call">
              <th scope="row">{call.method}</th>
              <td>{call.fetches.length === 1 ? '1 fetch' : `${call.fetches.length} fetches`}</td>
              <td className={call.error ? 'error' : undefined}>{call.error ?? 'ok'}</td>
              <td />
              <td>{call.ms}</td>
            </tr>,
            ...call.fetches.map((f, j) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: fetches of one call never reorder.
              <tr key={`fetch-${call.id}-${j}`} data-fetch>
                <td />
                <td className="url">
                  {f.method} {f.url}
                </td>
                <td>{f.error ? `error: ${f.error}` : (f.status ?? '')}</td>
                <td>{f.bytes}</td>
                <td>{Math.round(f.durationMs)}</td>
              </tr>
            )),
            ...call.logs.map((message, j) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: messages of one call never reorder.
              <tr key={`log-${call.id}-${j}`} data-log>
                <td />
                <td className="log" colSpan={4}>
                  logError: {message}
                </td>
              </tr>
            )),
          ])}
        </tbody>
      </table>
    )}
  </section>
);
