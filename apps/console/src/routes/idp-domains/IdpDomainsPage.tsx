import { useEffect, useId, useRef, useState } from 'react';
import { useIdpDomains, useSetIdpDomains } from '../../api/idp-domains.ts';
import { problemOf } from '../../api/problem.ts';
import { PageHeading } from '../../components/PageHeading.tsx';
import { ErrorState, Loading } from '../../components/States.tsx';

type Entry = { key: number; value: string };

/**
 * The identity-provider domains editor: one field per entry, saved as a whole list. The server checks every entry;
 * its error for entry i (`body[i]`) is shown next to that entry, and nothing is saved until all pass.
 */
const Editor = ({ subscriptionId, saved }: { subscriptionId: string; saved: string[] }) => {
  const id = useId();
  const nextKey = useRef(saved.length);
  const [entries, setEntries] = useState<Entry[]>(saved.map((value, key) => ({ key, value })));
  const save = useSetIdpDomains(subscriptionId);
  const problem = save.isError ? problemOf(save.error) : undefined;
  const errorAt = (index: number) => problem?.errors[`body[${index}]`]?.join('; ');
  // Once saved, the list shows what the server stored (lower case, punycode, duplicates merged), not what was typed.
  const stored = save.isSuccess;
  useEffect(() => {
    if (!stored) return;
    setEntries(saved.map((value) => ({ key: nextKey.current++, value })));
  }, [saved, stored]);
  const firstBad = useRef<HTMLInputElement | null>(null);
  useEffect(() => {
    if (problem) firstBad.current?.focus();
  }, [problem]);
  let badSeen = false;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(entries.map((e) => e.value.trim()));
      }}
    >
      <ul className="domain-list">
        {entries.map((entry, index) => {
          const error = errorAt(index);
          const first = error !== undefined && !badSeen;
          if (error !== undefined) badSeen = true;
          return (
            <li key={entry.key} data-entry={index}>
              <label htmlFor={`${id}-${entry.key}`}>Domain {index + 1}</label>
              <input
                id={`${id}-${entry.key}`}
                ref={first ? firstBad : undefined}
                value={entry.value}
                aria-invalid={error !== undefined}
                aria-describedby={error !== undefined ? `${id}-${entry.key}-error` : undefined}
                onChange={(event) =>
                  setEntries(
                    entries.map((e) => (e.key === entry.key ? { ...e, value: event.target.value } : e)),
                  )
                }
              />
              <button
                type="button"
                onClick={() => setEntries(entries.filter((e) => e.key !== entry.key))}
                aria-label={`Remove domain ${index + 1}${entry.value ? ` (${entry.value})` : ''}`}
              >
                Remove
              </button>
              {error !== undefined && (
                <span className="field-error" id={`${id}-${entry.key}-error`}>
                  {error}
                </span>
              )}
            </li>
          );
        })}
      </ul>
      {entries.length === 0 && (
        <p className="state empty">No domains: only the platform's own sign-in is allowed.</p>
      )}
      <div className="actions">
        <button type="button" onClick={() => setEntries([...entries, { key: nextKey.current++, value: '' }])}>
          Add a domain
        </button>
        <button type="submit" className="primary" disabled={save.isPending}>
          Save domains
        </button>
      </div>
      <div aria-live="polite">
        {save.isSuccess && <p className="state ok">Saved. The list shows the domains as stored.</p>}
        {problem && (
          <p className="state error" role="alert">
            Nothing was saved: {problem.message}
          </p>
        )}
      </div>
    </form>
  );
};

export const IdpDomainsPage = ({ subscriptionId }: { subscriptionId: string }) => {
  const domains = useIdpDomains(subscriptionId);
  return (
    <>
      <PageHeading title="Identity-provider domains">Identity-provider domains</PageHeading>
      <p className="muted">
        Users from these domains may sign in with their own identity provider. Changing the list needs the
        SubscriptionOwner or SubscriptionAdmin role.
      </p>
      {domains.isPending ? (
        <Loading what="the domains" />
      ) : domains.isError ? (
        <ErrorState error={domains.error} what="the identity-provider domains" />
      ) : (
        <Editor subscriptionId={subscriptionId} saved={domains.data} />
      )}
    </>
  );
};
