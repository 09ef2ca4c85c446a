import { useId, useState } from 'react';
import type { RenderQuery } from '../../api/subscription-renders.ts';

/** groupBy, top and a date range (applied together, both dates or neither). */
export const RenderControls = ({
  query,
  onChange,
}: {
  query: RenderQuery;
  onChange: (query: RenderQuery) => void;
}) => {
  const id = useId();
  const [start, setStart] = useState(query.startDate ?? '');
  const [end, setEnd] = useState(query.endDate ?? '');
  const incomplete = (start === '') !== (end === '');
  return (
    <form
      className="controls"
      onSubmit={(event) => {
        event.preventDefault();
        if (!incomplete) onChange({ ...query, startDate: start || undefined, endDate: end || undefined });
      }}
    >
      <fieldset>
        <legend>Group by</legend>
        {(['year', 'month'] as const).map((groupBy) => (
          <label key={groupBy}>
            <input
              type="radio"
              name={`${id}-groupBy`}
              value={groupBy}
              checked={query.groupBy === groupBy}
              onChange={() => onChange({ ...query, groupBy })}
            />
            {groupBy === 'year' ? 'Month (a year)' : 'Day (a month)'}
          </label>
        ))}
      </fieldset>
      <label>
        Environments listed
        <select
          value={query.top}
          onChange={(event) => onChange({ ...query, top: Number(event.target.value) })}
        >
          {[1, 2, 3, 5, 10, 50].map((top) => (
            <option key={top} value={top}>
              top {top}
            </option>
          ))}
        </select>
      </label>
      <fieldset>
        <legend>Date range (UTC, inclusive)</legend>
        <label>
          From
          <input
            type="date"
            name="startDate"
            value={start}
            onChange={(event) => setStart(event.target.value)}
          />
        </label>
        <label>
          To
          <input type="date" name="endDate" value={end} onChange={(event) => setEnd(event.target.value)} />
        </label>
        <button type="submit" disabled={incomplete}>
          Apply range
        </button>
        {(query.startDate || start || end) && (
          <button
            type="button"
            onClick={() => {
              setStart('');
              setEnd('');
              onChange({ ...query, startDate: undefined, endDate: undefined });
            }}
          >
            Default range
          </button>
        )}
        {incomplete && <span className="hint">Give both dates, or neither.</span>}
      </fieldset>
    </form>
  );
};
