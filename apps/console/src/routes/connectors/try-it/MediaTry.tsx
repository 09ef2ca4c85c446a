import type { ConnectorMethod, InvocationResult } from '@platform/runtime';
import { useEffect, useId, useState } from 'react';
import { usePaging } from './paging.tsx';
import { messageOf } from './use-sandbox.ts';

type Call = (method: ConnectorMethod, args: unknown[]) => Promise<InvocationResult>;
type Media = { id: string; name: string; relativePath?: string; extension?: string };
type MediaPage = { pageSize: number; data: Media[]; links?: { nextPage?: string } };

const objectUrl = (result: InvocationResult): string | undefined =>
  result.kind === 'binary'
    ? URL.createObjectURL(new Blob([result.bytes as BlobPart], { type: result.contentType }))
    : undefined;

/** One media of the grid: its thumbnail downloaded through the connector, then shown. */
const Thumbnail = ({ media, call, onOpen }: { media: Media; call: Call; onOpen: (media: Media) => void }) => {
  const [src, setSrc] = useState<string>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    let url: string | undefined;
    let gone = false;
    call('download', [media.id, 'thumbnail', 'web', {}]).then(
      (result) => {
        url = objectUrl(result);
        if (gone && url) URL.revokeObjectURL(url);
        else setSrc(url);
      },
      (failure: unknown) => {
        if (!gone) setError(messageOf(failure));
      },
    );
    return () => {
      gone = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [media.id, call]);
  return (
    <li>
      <button
        type="button"
        className="thumb"
        onClick={() => onOpen(media)}
        aria-label={`Details of ${media.name}`}
      >
        {src ? (
          <img src={src} alt={media.name} />
        ) : (
          <span className="thumb-empty">{error ?? 'Loading…'}</span>
        )}
        <span className="thumb-name">{media.name}</span>
      </button>
    </li>
  );
};

/** Query, detail and download of a media connector, run in this browser through the proxy. */
export const MediaTry = ({ call }: { call: Call }) => {
  const id = useId();
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<{
    media: Media;
    detail?: unknown;
    picture?: string;
    error?: string;
  }>();
  const paging = usePaging(
    async (pageToken) => {
      const options = {
        filter: search ? [search] : null,
        collection: null,
        pageToken,
        pageSize: 12,
        sortBy: null,
        sortOrder: null,
      };
      const result = await call('query', [options, {}]);
      return result.kind === 'json' ? (result.value as MediaPage) : { pageSize: 0, data: [] };
    },
    (page) => page.links?.nextPage,
  );
  const page = paging.page;

  const open = async (media: Media) => {
    setSelected({ media });
    try {
      const detail = await call('detail', [media.id, {}]);
      setSelected({ media, detail: detail.kind === 'json' ? detail.value : undefined });
    } catch (failure) {
      setSelected({ media, error: messageOf(failure) });
    }
  };
  const download = async (media: Media) => {
    try {
      const picture = objectUrl(await call('download', [media.id, 'original', 'web', {}]));
      setSelected((current) => (current?.media.id === media.id ? { ...current, picture } : current));
    } catch (failure) {
      setSelected((current) => (current ? { ...current, error: messageOf(failure) } : current));
    }
  };

  return (
    <div className="try-media">
      <form
        className="try-form"
        onSubmit={(event) => {
          event.preventDefault();
          void paging.first();
        }}
      >
        <label htmlFor={`${id}-search`}>Search</label>
        <input id={`${id}-search`} value={search} onChange={(event) => setSearch(event.target.value)} />
        <button type="submit" disabled={paging.busy}>
          Run query
        </button>
      </form>
      {paging.error && (
        <p role="alert" className="state error">
          {paging.error}
        </p>
      )}
      {page && (
        <>
          <p className="muted" role="status">
            {page.data.length} media on page {paging.number}
          </p>
          <ul className="thumb-grid" aria-label="Query results">
            {page.data.map((media) => (
              <Thumbnail key={media.id} media={media} call={call} onOpen={(m) => void open(m)} />
            ))}
          </ul>
          {paging.pager}
        </>
      )}
      {selected && (
        <section aria-label={`Detail of ${selected.media.name}`} className="try-detail">
          <h5>{selected.media.name}</h5>
          {selected.error && <p className="state error">{selected.error}</p>}
          {selected.detail !== undefined && <pre>{JSON.stringify(selected.detail, null, 2)}</pre>}
          <button type="button" onClick={() => void download(selected.media)}>
            Download {selected.media.name}
          </button>
          {selected.picture && (
            <img className="try-picture" src={selected.picture} alt={`${selected.media.name}, downloaded`} />
          )}
        </section>
      )}
    </div>
  );
};
