import { useId, useState } from 'react';

/** A configuration option as `getConfigurationOptions()` gives it. */
export type ConfigOption = { name: string; displayName?: string; type?: string };

type Values = Record<string, string | boolean>;

/** The context a connector receives: each field the user filled in, numbers as numbers, ticked boxes as `true`. */
const contextOf = (options: ConfigOption[], values: Values) => {
  const context: Record<string, unknown> = {};
  for (const option of options) {
    const value = values[option.name];
    if (value === undefined || value === '' || value === false) continue;
    context[option.name] = option.type === 'number' && typeof value === 'string' ? Number(value) : value;
  }
  return context;
};

/**
 * The connector's configuration options as fields, labelled with their `displayName`: applied, their values are the
 * `context` of every call (Studio fills it from the template's mappings).
 */
export const OptionFields = ({
  options,
  onApply,
}: {
  options: ConfigOption[];
  onApply: (context: Record<string, unknown>) => void;
}) => {
  const id = useId();
  const [values, setValues] = useState<Values>({});
  if (options.length === 0) return null;
  return (
    <form
      className="try-form try-options"
      onSubmit={(event) => {
        event.preventDefault();
        onApply(contextOf(options, values));
      }}
    >
      <fieldset>
        <legend>Configuration options, sent in the context of every call</legend>
        {options.map((option, i) => {
          const field = `${id}-${i}`;
          const label = option.displayName || option.name;
          const value = values[option.name];
          return option.type === 'boolean' ? (
            <label key={option.name} htmlFor={field} className="try-check">
              <input
                id={field}
                type="checkbox"
                checked={value === true}
                onChange={(event) => setValues({ ...values, [option.name]: event.target.checked })}
              />{' '}
              {label}
            </label>
          ) : (
            <span key={option.name} className="try-field">
              <label htmlFor={field}>{label}</label>
              <input
                id={field}
                type={option.type === 'number' ? 'number' : 'text'}
                value={typeof value === 'string' ? value : ''}
                onChange={(event) => setValues({ ...values, [option.name]: event.target.value })}
              />
            </span>
          );
        })}
        <button type="submit">Apply options</button>
      </fieldset>
    </form>
  );
};
