import { useId, useState } from 'react';
import { useDeleteConnectorAuth, useSetConnectorAuth } from '../../api/connector-auth.ts';
import { problemOf } from '../../api/problem.ts';
import { dateTime } from '../../format.ts';
import { AUTH_TYPES, type AuthTypeName, bodyOf } from './auth-fields.ts';

type Summary = { usage: string; type: string; name: string; updatedAt: string };

/**
 * One usage (browser or server) of a connector: what it is set to, a form per supported type to set it, and a
 * button to remove it. Secret fields start empty and are cleared after saving: a secret is never shown again.
 */
export const UsageAuth = ({
  environment,
  connectorId,
  connectorName,
  usage,
  supported,
  current,
}: {
  environment: string;
  connectorId: string;
  connectorName: string;
  usage: 'browser' | 'server';
  supported: AuthTypeName[];
  current: Summary | undefined;
}) => {
  const id = useId();
  const [type, setType] = useState<AuthTypeName | undefined>(supported[0]);
  const [name, setName] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const set = useSetConnectorAuth(environment, connectorId);
  const remove = useDeleteConnectorAuth(environment, connectorId);
  const problem = set.isError ? problemOf(set.error) : undefined;
  const errorOf = (path: string) => localErrors[path] ?? problem?.errors[path]?.join('; ');
  const label = `${usage} usage of ${connectorName}`;

  return (
    <section className="usage" aria-label={label}>
      <h3>{usage === 'server' ? 'Server usage' : 'Browser usage'}</h3>
      {current ? (
        <dl className="facts compact" data-usage-auth={usage}>
          <div>
            <dt>Type</dt>
            <dd>{current.type}</dd>
          </div>
          <div>
            <dt>Name</dt>
            <dd>{current.name}</dd>
          </div>
          <div>
            <dt>Updated</dt>
            <dd>{dateTime(current.updatedAt)}</dd>
          </div>
        </dl>
      ) : (
        <p className="muted" data-usage-auth={usage}>
          No authorization set.
        </p>
      )}
      {current && (
        <button type="button" onClick={() => remove.mutate(usage)} disabled={remove.isPending}>
          Remove <span className="visually-hidden">the {label}'s authorization</span>
        </button>
      )}
      {remove.isError && (
        <p role="alert" className="state error">
          {problemOf(remove.error).message}
        </p>
      )}
      {supported.length === 0 || type === undefined ? (
        <p className="muted">The connector supports no authorization for this usage.</p>
      ) : (
        <details>
          <summary>{current ? 'Replace' : 'Set'} the authorization</summary>
          <form
            autoComplete="off"
            onSubmit={(event) => {
              event.preventDefault();
              const built = bodyOf(type, usage, name, values);
              if ('errors' in built) {
                setLocalErrors(built.errors);
                return;
              }
              setLocalErrors({});
              set.mutate(
                { kind: AUTH_TYPES[type].kind, body: built.body },
                {
                  onSuccess: () =>
                    setValues(
                      Object.fromEntries(
                        Object.entries(values).filter(
                          ([path]) => !AUTH_TYPES[type].fields.find((f) => f.path === path)?.secret,
                        ),
                      ),
                    ),
                },
              );
            }}
          >
            <label>
              Type{' '}
              <select value={type} onChange={(event) => setType(event.target.value as AuthTypeName)}>
                {supported.map((t) => (
                  <option key={t} value={t}>
                    {AUTH_TYPES[t].label}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Name (optional) <input value={name} onChange={(event) => setName(event.target.value)} />
            </label>
            {AUTH_TYPES[type].fields.map((field) => {
              const fieldId = `${id}-${field.path}`;
              const error = errorOf(field.path);
              const common = {
                id: fieldId,
                name: field.path,
                value: values[field.path] ?? field.choices?.[0] ?? '',
                required: !field.optional,
                'aria-invalid': error !== undefined,
                'aria-describedby': error !== undefined ? `${fieldId}-error` : undefined,
                onChange: (
                  event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>,
                ) => setValues({ ...values, [field.path]: event.target.value }),
              };
              return (
                <div className="field" key={field.path}>
                  <label htmlFor={fieldId}>
                    {field.label}
                    {field.secret && <span className="muted"> (write-only)</span>}
                    {field.optional && <span className="muted"> (optional)</span>}
                  </label>
                  {field.choices ? (
                    <select {...common}>
                      {field.choices.map((choice) => (
                        <option key={choice}>{choice}</option>
                      ))}
                    </select>
                  ) : field.input === 'textarea' || field.input === 'json' ? (
                    <textarea {...common} rows={4} spellCheck={false} />
                  ) : (
                    <input
                      {...common}
                      type={field.secret ? 'password' : field.input === 'url' ? 'url' : 'text'}
                      autoComplete={field.secret ? 'new-password' : 'off'}
                    />
                  )}
                  {error !== undefined && (
                    <span className="field-error" id={`${fieldId}-error`}>
                      {error}
                    </span>
                  )}
                </div>
              );
            })}
            <button type="submit" className="primary" disabled={set.isPending}>
              Save <span className="visually-hidden">the {label}'s authorization</span>
            </button>
            <div aria-live="polite">
              {set.isSuccess && <p className="state ok">Saved. Secret fields are not shown again.</p>}
              {problem && (
                <p role="alert" className="state error">
                  Not saved: {problem.message}
                </p>
              )}
            </div>
          </form>
        </details>
      )}
    </section>
  );
};
