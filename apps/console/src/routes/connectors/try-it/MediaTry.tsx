import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { type Downloaded, DownloadView, useDownloadUrl } from './DownloadView.tsx';
import { FailureNote } from './FailureNote.tsx';
import { CallFailure, studioWording } from './failure.ts';
import { SvgFrame } from './SvgFrame.tsx';
import {
  browseContext,
  browseOptions,
  collectionOf,
  isFolder,
  type MediaCapabilities,
  type MediaItem,
  nextPageToken,
  segmentsOf,
} from './studio-calls.ts';
import { Upload } from './Upload.tsx';
import type { Call } from './use-sandbox.ts';

type Props = { call: Call; capabilities: MediaCapabilities; context: Record<string, unknown> };

/** A folder opened on the way: its name, and the segments of the collection its opening sent. */
type Crumb = { name: string; segments: string[] };
/** Where the browser is: the folder's path segments, the folders opened to get there, a search. */
type Place = { segments: string[]; crumbs: Crumb[]; search: string };
type Page = { items: MediaItem[]; next: string; number: number };

const ROOT: Place = { segments: [], crumbs: [], search: '' };

const binary = (result: Awaited<ReturnType<Call>>): Downloaded | undefined =>
  result.kind === 'binary' ? result : undefined;

const fileName = (item: MediaItem) =>
  item.extension && !item.name.toLowerCase().endsWith(`.${item.extension.toLowerCase()}`)
    ? `${item.name}.${item.extension}`
    : item.name;

/** A file's `mediumres` picture, downloaded as Studio's media browser does: what it came to, or why it did not. */
const usePicture = (item: MediaItem, call: Call, context: Record<string, unknown>) => {
  const [downloaded, setDownloaded] = useState<Downloaded>();
  const [failure, setFailure] = useState<unknown>();
  useEffect(() => {
    let gone = false;
    call('download', [item.id, 'mediumres', 'web', context]).then(
      (result) => {
        if (!gone) setDownloaded(binary(result));
      },
      (error: unknown) => {
        if (!gone) setFailure(error);
      },
    );
    return () => {
      gone = true;
    };
  }, [item.id, call, context]);
  return { downloaded, failure };
};

const Picture = ({
  item,
  downloaded,
  failure,
}: {
  item: MediaItem;
  downloaded: Downloaded | undefined;
  failure: unknown;
}) => {
  const { display, url } = useDownloadUrl(downloaded);
  if (failure !== undefined) return <span className="thumb-empty">{studioWording(failure, 'media')}</span>;
  if (!downloaded || !url) return <span className="thumb-empty">Loading…</span>;
  if (display?.as === 'svg')
    return <SvgFrame bytes={downloaded.bytes} name={item.name} className="thumb-svg" decorative />;
  if (display?.as !== 'image')
    return <span className="thumb-empty">{downloaded.contentType || 'a file'}: not drawn here</span>;
  return <img src={url} alt="" />;
};

/**
 * A file of the grid: its button (the picture, or Studio's words for why there is none) and, when its download failed,
 * the status, the connector's message and the fetches beside it, as for any failed call.
 */
const FileTile = ({
  item,
  call,
  context,
  selected,
  onOpen,
}: {
  item: MediaItem;
  call: Call;
  context: Record<string, unknown>;
  selected: boolean;
  onOpen: () => void;
}) => {
  const { downloaded, failure } = usePicture(item, call, context);
  return (
    <>
      <button type="button" className="thumb" aria-label={item.name} aria-pressed={selected} onClick={onOpen}>
        <Picture item={item} downloaded={downloaded} failure={failure} />
        <span className="thumb-name">{item.name}</span>
      </button>
      {failure !== undefined && <FailureNote failure={failure} kind="media" />}
    </>
  );
};

/** A file's detail, and its downloads of each preview type and intent on request. */
const Detail = ({
  item,
  call,
  context,
}: {
  item: MediaItem;
  call: Call;
  context: Record<string, unknown>;
}) => {
  const id = useId();
  const [detail, setDetail] = useState<unknown>();
  const [failure, setFailure] = useState<unknown>();
  const [previewType, setPreviewType] = useState('highres');
  const [intent, setIntent] = useState('web');
  const [downloaded, setDownloaded] = useState<Downloaded>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    let gone = false;
    setDetail(undefined);
    setFailure(undefined);
    setDownloaded(undefined);
    call('detail', [item.id, context]).then(
      (result) => {
        if (!gone) setDetail(result.kind === 'json' ? result.value : undefined);
      },
      (error: unknown) => {
        if (!gone) setFailure(error);
      },
    );
    return () => {
      gone = true;
    };
  }, [item.id, call, context]);
  const download = async () => {
    setBusy(true);
    setFailure(undefined);
    setDownloaded(undefined);
    try {
      setDownloaded(binary(await call('download', [item.id, previewType, intent, context])));
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-label={`Detail of ${item.name}`} className="try-detail">
      <h4>{item.name}</h4>
      {detail !== undefined && <pre>{JSON.stringify(detail, null, 2)}</pre>}
      <form
        className="try-form"
        onSubmit={(event) => {
          event.preventDefault();
          void download();
        }}
      >
        <label htmlFor={`${id}-type`}>Preview type</label>
        <select id={`${id}-type`} value={previewType} onChange={(e) => setPreviewType(e.target.value)}>
          <option value="highres">highres</option>
          <option value="fullres">fullres</option>
        </select>
        <label htmlFor={`${id}-intent`}>Intent</label>
        <select id={`${id}-intent`} value={intent} onChange={(e) => setIntent(e.target.value)}>
          <option value="web">web</option>
          <option value="print">print</option>
          <option value="animation">animation</option>
        </select>
        <button type="submit" disabled={busy}>
          Download
        </button>
      </form>
      {failure !== undefined && <FailureNote failure={failure} kind="media" />}
      {downloaded && <DownloadView downloaded={downloaded} name={fileName(item)} />}
    </section>
  );
};

/** One asset by id, as Studio resolves an image variable: query by filter (or detail), then its thumbnail. */
const LookUp = ({ call, capabilities }: { call: Call; capabilities: MediaCapabilities }) => {
  const id = useId();
  const [assetId, setAssetId] = useState('');
  const [found, setFound] = useState<{ item: MediaItem; thumbnail?: Downloaded }>();
  const [failure, setFailure] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const lookUp = async () => {
    setBusy(true);
    setFound(undefined);
    setFailure(undefined);
    try {
      let item: MediaItem | undefined;
      if (capabilities.query && capabilities.filtering) {
        const page = await call('query', [{ filter: [assetId], pageSize: 1 }, {}]);
        item = page.kind === 'json' ? (page.value as { data?: MediaItem[] }).data?.[0] : undefined;
      } else {
        const detail = await call('detail', [assetId, {}]);
        item = detail.kind === 'json' ? ((detail.value as MediaItem | null) ?? undefined) : undefined;
      }
      // Nothing came back: Studio reads it as a 404, "Asset is missing".
      if (!item) throw new CallFailure(new Error(`the connector found no asset with id ${assetId}`), [], 404);
      setFound({ item });
      const thumbnail = binary(await call('download', [assetId, 'thumbnail', 'web', {}]));
      setFound(thumbnail ? { item, thumbnail } : { item });
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-label="Look up an asset" className="try-lookup">
      <h4>Look up an asset by id, as Studio resolves an image variable</h4>
      <form
        className="try-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (assetId) void lookUp();
        }}
      >
        <label htmlFor={`${id}-asset`}>Asset id</label>
        <input id={`${id}-asset`} value={assetId} onChange={(e) => setAssetId(e.target.value)} />
        <button type="submit" disabled={busy || !assetId}>
          Look up
        </button>
      </form>
      {failure !== undefined && <FailureNote failure={failure} kind="media" />}
      {found && (
        <div role="status" aria-label="Asset found">
          <p>
            <strong>{found.item.name}</strong> <code>{found.item.id}</code>
          </p>
          {found.thumbnail && <DownloadView downloaded={found.thumbnail} name={fileName(found.item)} />}
        </div>
      )}
    </section>
  );
};

/** Studio's media browser in this browser: the root at once, folders with breadcrumbs, search, pages, detail. */
export const MediaTry = ({ call, capabilities, context }: Props) => {
  const id = useId();
  const filtering = capabilities.filtering === true;
  const [term, setTerm] = useState('');
  const [place, setPlace] = useState<Place>(ROOT);
  const [page, setPage] = useState<Page>();
  const [failure, setFailure] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [selected, setSelected] = useState<MediaItem>();
  const latest = useRef(0);
  // A folder opened or left by its button: the button is gone with the page it was on, so the focus goes to the
  // line that says where the user now is (it would otherwise fall back to the document, far from the panel).
  const status = useRef<HTMLParagraphElement>(null);
  const moved = useRef(false);
  useEffect(() => {
    if (page && moved.current) {
      moved.current = false;
      status.current?.focus();
    }
  }, [page]);

  const load = useCallback(
    async (at: Place, token: string, number: number) => {
      const request = ++latest.current;
      setBusy(true);
      setFailure(undefined);
      try {
        const options = browseOptions({
          collection: at.search ? '/' : collectionOf(at.segments),
          pageToken: token,
          search: at.search,
          filtering,
        });
        const result = await call('query', [options, browseContext(context)]);
        if (request !== latest.current) return;
        const value = (result.kind === 'json' ? result.value : undefined) as
          | { data?: MediaItem[]; links?: { nextPage?: unknown } }
          | undefined;
        setPlace(at);
        setPage({ items: value?.data ?? [], next: nextPageToken(value?.links?.nextPage), number });
      } catch (error) {
        if (request === latest.current) setFailure(error);
      } finally {
        if (request === latest.current) setBusy(false);
      }
    },
    [call, context, filtering],
  );

  // Opening Try it browses the root at once, as Studio's media panel does.
  useEffect(() => {
    void load(ROOT, '', 1);
  }, [load]);

  const open = (item: MediaItem) => {
    if (isFolder(item)) {
      setSelected(undefined);
      const segments = segmentsOf(item);
      moved.current = true;
      void load({ segments, crumbs: [...place.crumbs, { name: item.name, segments }], search: '' }, '', 1);
    } else setSelected(item);
  };
  // Back to a folder opened on the way: the very collection its opening sent (depth 0 is the root).
  const back = (depth: number) => {
    moved.current = true;
    void load(
      { segments: place.crumbs[depth - 1]?.segments ?? [], crumbs: place.crumbs.slice(0, depth), search: '' },
      '',
      1,
    );
  };

  return (
    <div className="try-media">
      <form
        className="try-form"
        onSubmit={(event) => {
          event.preventDefault();
          setSelected(undefined);
          // A search starts at the root, as in Studio.
          void load({ ...ROOT, search: filtering ? term : '' }, '', 1);
        }}
      >
        <label htmlFor={`${id}-search`}>Search</label>
        <input
          id={`${id}-search`}
          type="search"
          value={term}
          disabled={!filtering}
          title={filtering ? undefined : 'This connector cannot filter (capabilities: filtering false)'}
          onChange={(event) => setTerm(event.target.value)}
        />
        <button type="submit" disabled={busy}>
          Run query
        </button>
      </form>
      {!place.search && place.crumbs.length > 0 && (
        <nav aria-label="Breadcrumbs" className="try-crumbs">
          <ol>
            {['Home', ...place.crumbs.map((crumb) => crumb.name)].map((name, depth) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a crumb is its depth; two folders may share a name.
              <li key={depth}>
                {depth === place.crumbs.length ? (
                  <span aria-current="location">{name}</span>
                ) : (
                  <button type="button" onClick={() => back(depth)} disabled={busy}>
                    {name}
                  </button>
                )}
              </li>
            ))}
          </ol>
        </nav>
      )}
      {failure !== undefined && <FailureNote failure={failure} kind="media" />}
      {page && (
        <>
          <p className="muted" role="status" ref={status} tabIndex={-1}>
            {page.items.length} media on page {page.number}
            {place.search ? ` of the search “${place.search}”` : ` of ${collectionOf(place.segments)}`}
          </p>
          <ul className="thumb-grid" aria-label="Query results">
            {page.items.map((item) => (
              <li key={`${item.id}-${item.name}`}>
                {isFolder(item) ? (
                  <button
                    type="button"
                    className="thumb folder"
                    aria-label={item.name}
                    onClick={() => open(item)}
                  >
                    <span className="thumb-folder" aria-hidden="true">
                      Folder
                    </span>
                    <span className="thumb-name">{item.name}</span>
                  </button>
                ) : (
                  <FileTile
                    item={item}
                    call={call}
                    context={context}
                    selected={selected?.id === item.id}
                    onOpen={() => open(item)}
                  />
                )}
              </li>
            ))}
          </ul>
          <div className="pager">
            <button
              type="button"
              disabled={busy || !page.next}
              onClick={() => void load(place, page.next, page.number + 1)}
            >
              Next page
            </button>
          </div>
        </>
      )}
      {selected && <Detail item={selected} call={call} context={context} />}
      <LookUp call={call} capabilities={capabilities} />
      {capabilities.upload && (
        <Upload call={call} context={context} onUploaded={() => void load(place, '', 1)} />
      )}
    </div>
  );
};
