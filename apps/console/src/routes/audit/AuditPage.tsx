import type { AuditEntry } from '@platform/client';
import { auditActions as ACTIONS } from '@platform/core/audit-actions';
import { useState } from 'react';
import { Link } from 'wouter';
import { type AuditFilters, useAuditTrail } from '../../api/audit.ts';
import { PageHeading } from '../../components/PageHeading.tsx';
import { Empty, ErrorState, Loading } from '../../components/States.tsx';

/** A value as the diff shows it: fingerprints and text as they are, anything else as JSON. */
const shown = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

const Side = ({ value, kind }: { value: unknown; kind: 'from' | 'to' }) =>
  value === undefined ? (
    <span className="muted">—</span>
  ) : (
    <code
      className={`diff-${kind}`}
      title={shown(value).startsWith('sha256:') ? 'keyed fingerprint of a secret' : undefined}
    >
      {shown(value)}
    </code>
  );

/** Each changed field: its name, what it was and what it became. */
const Changes = ({ changes }: { changes: AuditEntry['changes'] }) => {
  const fields = Object.entries(changes);
  if (fields.length === 0) return <span className="muted">no fields</span>;
  return (
    <ul className="plain diff">
      {fields.map(([field, change]) => (
        <li key={field}>
          <strong>{field}</strong>: <Side value={change.from} kind="from" /> →{' '}
          <Side value={change.to} kind="to" />
        </li>
      ))}
    </ul>
  );
};

/** What the entry touched, linked to where it can be seen when the console has a page for it. */
const Target = ({ entry, subscriptionId }: { entry: AuditEntry; subscriptionId: string }) => {
  const { type, id, environment } = entry.target;
  const where = environment ? ` in ${environment}` : '';
  if ((type === 'connector' || type === 'connectorAuthorization') && environment) {
    return (
      <Link href={`/subscriptions/${subscriptionId}/environments/${environment}/connectors`}>
        {type === 'connector' ? 'Connector' : 'Connector authorization'} {id.slice(0, 8)}
        {where}
      </Link>
    );
  }
  if (type === 'template' && environment && entry.action !== 'template.delete') {
    return (
      <a href={`/grafx/api/v1/environment/${environment}/templates/${id}`}>
        Template {id.slice(0, 8)}
        {where}
      </a>
    );
  }
  return (
    <span>
      {type} {id.length > 12 ? id.slice(0, 8) : id}
      {where}
    </span>
  );
};

/** A datetime-local input's value as an ISO date-time (local time), or ''. */
const isoOf = (local: string): string => (local === '' ? '' : new Date(local).toISOString());

/**
 * The audit trail of one subscription and its environments (owners and admins): who changed what, when and from
 * where, newest first, with a readable diff of each change; secrets appear only as fingerprints.
 */
export const AuditPage = ({ subscriptionId }: { subscriptionId: string }) => {
  const [form, setForm] = useState({ environment: '', actor: '', action: '', from: '', to: '' });
  const [filters, setFilters] = useState<AuditFilters>({
    subscriptionId,
    environment: '',
    actor: '',
    action: '',
    from: '',
    to: '',
  });
  const trail = useAuditTrail(filters);
  const entries = trail.data?.pages.flatMap((page) => page.data) ?? [];
  const field = (name: keyof typeof form) => ({
    value: form[name],
    onChange: (event: { target: { value: string } }) => setForm({ ...form, [name]: event.target.value }),
  });
  return (
    <>
      <PageHeading title="Audit">Audit trail</PageHeading>
      <p>
        Every change to this subscription and its environments, newest first. Secrets show only as
        fingerprints.
      </p>
      <form
        className="filters"
        aria-label="Filter the audit trail"
        onSubmit={(event) => {
          event.preventDefault();
          setFilters({ subscriptionId, ...form, from: isoOf(form.from), to: isoOf(form.to) });
        }}
      >
        <label>
          Environment
          <input type="text" placeholder="technical name" {...field('environment')} />
        </label>
        <label>
          Action
          <select {...field('action')}>
            <option value="">Any</option>
            {ACTIONS.map((action) => (
              <option key={action}>{action}</option>
            ))}
          </select>
        </label>
        <label>
          Actor
          <input type="text" placeholder="a user id" {...field('actor')} />
        </label>
        <label>
          From
          <input type="datetime-local" {...field('from')} />
        </label>
        <label>
          To
          <input type="datetime-local" {...field('to')} />
        </label>
        <button type="submit">Apply filters</button>
      </form>
      {trail.isPending ? (
        <Loading what="the audit trail" />
      ) : trail.isError ? (
        <ErrorState error={trail.error} what="the audit trail of this subscription" />
      ) : entries.length === 0 ? (
        <Empty>No change matches these filters.</Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <caption>Changes, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">Action</th>
                <th scope="col">Target</th>
                <th scope="col">Changes</th>
                <th scope="col">From</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id} data-action={entry.action}>
                  <td>
                    <time dateTime={entry.at}>{new Date(entry.at).toLocaleString()}</time>
                  </td>
                  <th scope="row">{entry.actor.subject}</th>
                  <td>
                    {entry.action}
                    {entry.outcome === 'denied' && <div className="denied">denied</div>}
                  </td>
                  <td>
                    <Target entry={entry} subscriptionId={subscriptionId} />
                  </td>
                  <td>
                    <Changes changes={entry.changes} />
                  </td>
                  <td>
                    {entry.sourceAddress}
                    <div className="muted" title="trace id">
                      {entry.traceId.slice(0, 8)}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {trail.hasNextPage && (
        <button type="button" onClick={() => trail.fetchNextPage()} disabled={trail.isFetchingNextPage}>
          {trail.isFetchingNextPage ? 'Loading older changes…' : 'Older changes'}
        </button>
      )}
    </>
  );
};
