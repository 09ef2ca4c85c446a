import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { FailureNote } from './FailureNote.tsx';
import { DATA_PAGE_SIZE, type DataCapabilities } from './studio-calls.ts';
import type { Call } from './use-sandbox.ts';

type Row = Record<string, unknown>;
type DataPage = { data?: Row[]; continuationToken?: string | null; previousPageToken?: string | null };
type DataModel = { properties?: { name: string; type: string }[]; itemIdPropertyName?: string };
type PageItem = { data?: Row; continuationToken?: string | null; previousPageToken?: string | null };
type Shown = {
  rows: Row[];
  next: string | null;
  previous: string | null;
  number: number;
  /** The pages before this one, when the connector gives no `previousPageToken` to fetch them again. */
  before: Shown[];
};

/** Which page to ask for: the first (`continuationToken: null`), the next or the previous one, as Studio asks. */
type Direction = { continuationToken: string | null } | { previousPageToken: string };

const cell = (value: unknown) =>
  value === null || value === undefined
    ? ''
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);

/** Rows as a table; with `open`, each row's id (the model's `itemIdPropertyName`) is a button that opens the row. */
const RowsTable = ({
  rows,
  label,
  idColumn,
  open,
}: {
  rows: Row[];
  label: string;
  idColumn?: string | undefined;
  open?: ((id: string) => void) | undefined;
}) => {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return (
    <div className="table-scroll">
      <table aria-label={label}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows of one page never reorder.
            <tr key={i}>
              {columns.map((c) => (
                <td key={c}>
                  {open && c === idColumn && cell(row[c]) ? (
                    <button type="button" className="try-row-open" onClick={() => open(cell(row[c]))}>
                      {cell(row[c])}
                    </button>
                  ) : (
                    cell(row[c])
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
};

/** Studio's data source in this browser: the model and the first page at once, pages of 50 both ways, a row by id. */
export const DataTry = ({
  call,
  capabilities,
  context,
}: {
  call: Call;
  capabilities: DataCapabilities;
  context: Record<string, unknown>;
}) => {
  const id = useId();
  const [model, setModel] = useState<DataModel>();
  const [modelFailure, setModelFailure] = useState<unknown>();
  const [shown, setShown] = useState<Shown>();
  const [failure, setFailure] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [rowId, setRowId] = useState('');
  const [item, setItem] = useState<{ id: string; row?: Row }>();
  const latest = useRef(0);

  const load = useCallback(
    async (direction: Direction, placed: (page: DataPage) => Pick<Shown, 'number' | 'before'>) => {
      const request = ++latest.current;
      setBusy(true);
      setFailure(undefined);
      try {
        const result = await call('getPage', [{ limit: DATA_PAGE_SIZE, ...direction }, context]);
        if (request !== latest.current) return;
        const page = (result.kind === 'json' ? result.value : {}) as DataPage;
        setShown({
          rows: page.data ?? [],
          next: page.continuationToken || null,
          previous: page.previousPageToken || null,
          ...placed(page),
        });
      } catch (error) {
        if (request === latest.current) setFailure(error);
      } finally {
        if (request === latest.current) setBusy(false);
      }
    },
    [call, context],
  );

  // Opening Try it loads the model and the first page at once.
  useEffect(() => {
    let gone = false;
    setModelFailure(undefined);
    call('getModel', [context]).then(
      (result) => {
        if (!gone) setModel(result.kind === 'json' ? (result.value as DataModel) : undefined);
      },
      (error: unknown) => {
        if (!gone) setModelFailure(error);
      },
    );
    void load({ continuationToken: null }, () => ({ number: 1, before: [] }));
    return () => {
      gone = true;
    };
  }, [call, context, load]);

  const next = (current: Shown) =>
    void load({ continuationToken: current.next }, () => ({
      number: current.number + 1,
      before: [...current.before, current],
    }));
  const previous = (current: Shown) => {
    if (current.previous)
      void load({ previousPageToken: current.previous }, () => ({
        number: Math.max(1, current.number - 1),
        before: current.before.slice(0, -1),
      }));
    // Without a token the connector cannot go back: show the page already loaded, as Studio keeps its rows.
    else if (current.before.length > 0) setShown(current.before.at(-1));
  };
  const lookUp = async (id: string) => {
    setItem(undefined);
    setFailure(undefined);
    try {
      const result = await call('getPageItemById', [id, { limit: DATA_PAGE_SIZE }, context]);
      const found = (result.kind === 'json' ? result.value : {}) as PageItem;
      setItem(found.data ? { id, row: found.data } : { id });
      // Then the rows around it, as Studio loads them for a selected row.
      const direction: Direction = found.continuationToken
        ? { continuationToken: found.continuationToken }
        : found.previousPageToken
          ? { previousPageToken: found.previousPageToken }
          : { continuationToken: null };
      await load(direction, () => ({ number: 1, before: [] }));
    } catch (error) {
      setFailure(error);
    }
  };

  return (
    <div className="try-data">
      {modelFailure !== undefined && <FailureNote failure={modelFailure} kind="data" />}
      {model?.properties && <h4>Model</h4>}
      {model?.properties && (
        <ul aria-label="Model" className="try-model">
          {model.properties.map((p) => (
            <li key={p.name}>
              <code>{p.name}</code> {p.type}
            </li>
          ))}
        </ul>
      )}
      {/* Studio looks a row up by id for data source variables only, and the runtime runs it only then. */}
      {capabilities.dataSourceVariable && (
        <form
          className="try-form"
          onSubmit={(event) => {
            event.preventDefault();
            if (rowId) void lookUp(rowId);
          }}
        >
          <label htmlFor={`${id}-row`}>Row id</label>
          <input id={`${id}-row`} value={rowId} onChange={(event) => setRowId(event.target.value)} />
          <button type="submit" disabled={busy || !rowId}>
            Look up
          </button>
        </form>
      )}
      {failure !== undefined && <FailureNote failure={failure} kind="data" />}
      {item && (
        <section aria-label={`Row ${item.id}`}>
          {item.row ? <RowsTable rows={[item.row]} label={`Row ${item.id}`} /> : <p>No row with this id.</p>}
        </section>
      )}
      {shown && (
        <>
          <p className="muted" role="status">
            {shown.rows.length} {shown.rows.length === 1 ? 'row' : 'rows'} on page {shown.number}
          </p>
          <RowsTable
            rows={shown.rows}
            label="Rows"
            idColumn={model?.itemIdPropertyName}
            open={capabilities.dataSourceVariable ? (id) => void lookUp(id) : undefined}
          />
          <div className="pager">
            <button
              type="button"
              disabled={busy || (!shown.previous && shown.before.length === 0)}
              onClick={() => previous(shown)}
            >
              Previous page
            </button>
            <button type="button" disabled={busy || !shown.next} onClick={() => next(shown)}>
              Next page
            </button>
          </div>
        </>
      )}
    </div>
  );
};
