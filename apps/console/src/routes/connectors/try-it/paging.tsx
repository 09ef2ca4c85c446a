import { useState } from 'react';
import { messageOf } from './use-sandbox.ts';

/**
 * Pages reached by a connector's own tokens (`links.nextPage` of a media page, `continuationToken` of a data page):
 * the tokens that led to each page so far, so Previous goes back as Next went forward.
 */
export const usePaging = <T,>(
  load: (token: string | null) => Promise<T>,
  nextOf: (page: T) => string | null | undefined,
) => {
  const [page, setPage] = useState<T>();
  const [tokens, setTokens] = useState<(string | null)[]>([null]);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const go = async (token: string | null, history: (string | null)[]) => {
    setBusy(true);
    setError(undefined);
    try {
      setPage(await load(token));
      setTokens(history);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };
  const next = page === undefined ? undefined : nextOf(page);
  return {
    page,
    error,
    busy,
    number: tokens.length,
    first: () => go(null, [null]),
    pager: (
      <div className="pager">
        <button
          type="button"
          disabled={busy || tokens.length < 2}
          onClick={() => void go(tokens.at(-2) ?? null, tokens.slice(0, -1))}
        >
          Previous page
        </button>
        <button
          type="button"
          disabled={busy || !next}
          onClick={() => void go(next ?? null, [...tokens, next ?? null])}
        >
          Next page
        </button>
      </div>
    ),
  };
};
