import { useId } from 'react';
import type { MemoryProviderConfigDescription } from '../api/types';
import { acceptsOtherFields, configFields } from '../config-fields';
import { JsonBlock } from './details-list';

/**
 * What a config of the chosen provider looks like: its settings (from the JSON Schema the server
 * gives), an example with every secret as a `$secret` reference, a button that puts the example
 * in the config box, and the schema itself.
 */
export function ProviderConfigHelp({ provider, onUseExample }: { provider: MemoryProviderConfigDescription; onUseExample: () => void }) {
  const titleId = useId();
  const fields = configFields(provider.configSchema, provider.secretFields);
  const open = acceptsOtherFields(provider.configSchema);
  return (
    <section className="config-help field-wide" aria-labelledby={titleId}>
      <h3 id={titleId}>{`Settings of ${provider.providerId}`}</h3>
      <p className="muted">{provider.description}</p>
      {fields.length === 0 ? (
        <p>This provider takes no settings of its own.</p>
      ) : (
        <div className="table-scroll">
          <table aria-labelledby={titleId}>
            <thead>
              <tr>
                <th scope="col">Setting</th>
                <th scope="col">Type</th>
                <th scope="col">Notes</th>
              </tr>
            </thead>
            <tbody>
              {fields.map((field) => (
                <tr key={field.path}>
                  <th scope="row">
                    <code>{field.path}</code>
                  </th>
                  <td>{field.type}</td>
                  <td>{[field.required ? 'required' : 'optional', ...field.notes].join('; ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="hint">
        {'Secrets are written as references, never as values: '}
        <code>{'{ "$secret": { "env": "NAME" } }'}</code> names an environment variable the operator lets this company read.
        {open ? ` The ${provider.providerId} package checks its other settings when the binding is first used.` : ''}
      </p>
      <div className="example-head">
        <h4>Example</h4>
        <button type="button" onClick={onUseExample}>
          Use example
        </button>
      </div>
      <JsonBlock label={`Example config of ${provider.providerId}`} value={provider.configExample} />
      <details>
        <summary>JSON Schema of the config</summary>
        <JsonBlock label={`JSON Schema of ${provider.providerId}`} value={provider.configSchema} />
      </details>
    </section>
  );
}
