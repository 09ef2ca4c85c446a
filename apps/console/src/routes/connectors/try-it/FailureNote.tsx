import { CallFailure, studioWording } from './failure.ts';

/**
 * A failed call as Studio words it, with what a developer needs beside: the connector's status and message, and the
 * fetches the call made.
 */
export const FailureNote = ({ failure, kind }: { failure: unknown; kind: 'media' | 'data' }) => {
  const known = failure instanceof CallFailure ? failure : undefined;
  const detail = [known?.status === undefined ? undefined : `status ${known.status}`, known?.code]
    .filter((part) => part !== undefined)
    .join(', ');
  return (
    <div role="alert" className="state error try-failure">
      <strong>{studioWording(failure, kind)}</strong>
      {detail && <span className="try-failure-code"> ({detail})</span>}
      <p className="try-failure-message">{failure instanceof Error ? failure.message : String(failure)}</p>
      {known && known.fetches.length > 0 && (
        <ul aria-label="Fetches of the failed call" className="try-failure-fetches">
          {known.fetches.map((f, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: fetches of one call never reorder.
            <li key={i} className="url">
              {f.method} {f.url} {f.error ? `error: ${f.error}` : (f.status ?? '')}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
};
