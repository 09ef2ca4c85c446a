import type { ConnectorMethod, InvocationResult } from '@platform/runtime';
import { useId, useState } from 'react';
import { usePaging } from './paging.tsx';
import { messageOf } from './use-sandbox.ts';

type Call = (method: ConnectorMethod, args: unknown[]) => Promise<InvocationResult>;
type Row = Record<string, unknown>;
type DataPage = { data: Row[]; continuationToken?: string | null };
type DataModel = { properties: { name: string; type: string }[] };

const cell = (value: unknown) =>
  value === null || value === undefined
    ? ''
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);

/** Pages of a data connector as a table (with its continuation token for paging), and its model. */
export const DataTry = ({ call }: { call: Call }) => {
  const id = useId();
  const [limit, setLimit] = useState('10');
  const [model, setModel] = useState<DataModel>();
  const [modelError, setModelError] = useState<string>();
  const paging = usePaging(
    async (continuationToken) => {
      const result = await call('getPage', [{ limit: Number(limit) || 10, continuationToken }, {}]);
      return result.kind === 'json' ? (result.value as DataPage) : { data: [] };
    },
    (page) => page.continuationToken,
  );
  const page = paging.page;
  const loadModel = async () => {
    try {
      const result = await call('getModel', [{}]);
      setModel(result.kind === 'json' ? (result.value as DataModel) : undefined);
    } catch (failure) {
      setModelError(messageOf(failure));
    }
  };

  const columns = [...new Set((page?.data ?? []).flatMap((row) => Object.keys(row)))];
  return (
    <div className="try-data">
      <form
        className="try-form"
        onSubmit={(event) => {
          event.preventDefault();
          void paging.first();
        }}
      >
        <label htmlFor={`${id}-limit`}>Rows per page</label>
        <input
          id={`${id}-limit`}
          inputMode="numeric"
          value={limit}
          onChange={(event) => setLimit(event.target.value)}
        />
        <button type="submit" disabled={paging.busy}>
          Load first page
        </button>
        <button type="button" onClick={() => void loadModel()}>
          Show model
        </button>
      </form>
      {(paging.error ?? modelError) && (
        <p role="alert" className="state error">
          {paging.error ?? modelError}
        </p>
      )}
      {model && (
        <ul aria-label="Model" className="try-model">
          {model.properties.map((p) => (
            <li key={p.name}>
              <code>{p.name}</code> {p.type}
            </li>
          ))}
        </ul>
      )}
      {page && (
        <>
          <p className="muted" role="status">
            {page.data.length} rows on page {paging.number}
          </p>
          <div className="table-scroll">
            <table aria-label="Rows">
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
                {page.data.map((row, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: rows of one page never reorder.
                  <tr key={i}>
                    {columns.map((c) => (
                      <td key={c}>{cell(row[c])}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {paging.pager}
        </>
      )}
    </div>
  );
};
