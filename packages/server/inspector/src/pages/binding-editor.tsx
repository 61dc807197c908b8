import { useState, type FormEvent, type ReactNode } from 'react';
import { endpoints } from '../api/endpoints';
import type { MemoryBinding } from '../api/types';
import { ErrorBanner } from '../components/error-banner';
import { CheckField, SelectField, TextArea, TextField } from '../components/field';
import { ProviderConfigHelp } from '../components/provider-config-help';
import { useInspector } from '../context';
import { useAsync } from '../use-async';

/** The capture hooks a binding can turn on, in words. */
export const hookNames = [
  ['postRunCapture', 'Capture finished runs'],
  ['issueCommentCapture', 'Capture issue comments'],
  ['issueDocumentCapture', 'Capture issue documents'],
] as const;

/** Creates a binding, or edits one (config, state, hooks), after a confirmation. */
export function BindingEditor(props: {
  binding: MemoryBinding | undefined;
  confirm: (title: string, body: ReactNode, confirmLabel: string) => Promise<boolean>;
  onClose: () => void;
  onSaved: (binding: MemoryBinding) => void;
}) {
  const { api, companyId } = useInspector();
  const calls = endpoints(api, companyId);
  const providers = useAsync(() => calls.providers(), [api, companyId]);
  const existing = props.binding;
  const [key, setKey] = useState(existing?.key ?? '');
  const [providerId, setProviderId] = useState(existing?.providerId ?? '');
  // What a config of the chosen provider looks like: its settings, an example, its JSON Schema.
  const provider = useAsync(async () => (providerId === '' ? undefined : calls.providerConfig(providerId)), [api, companyId, providerId]);
  const [config, setConfig] = useState(JSON.stringify(existing?.config ?? {}, null, 2));
  const [enabled, setEnabled] = useState(existing?.enabled ?? true);
  const [hooks, setHooks] = useState({ postRunCapture: false, issueCommentCapture: false, issueDocumentCapture: false, ...existing?.hooks });
  const [error, setError] = useState<unknown>(undefined);

  const applyExample = async () => {
    const example = provider.data;
    if (example === undefined) return;
    const text = JSON.stringify(example.configExample, null, 2);
    const untouched = config.trim() === '' || config.trim() === '{}' || config === text || config === JSON.stringify(existing?.config ?? {}, null, 2);
    if (!untouched && !(await props.confirm(`Replace the config with the ${example.providerId} example?`, 'What is in the config box now is replaced. Nothing is saved until you create or save the binding.', 'Replace'))) return;
    setConfig(text);
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    let parsedConfig: Record<string, unknown>;
    try {
      const value: unknown = JSON.parse(config);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new TypeError('the config must be a JSON object');
      parsedConfig = value as Record<string, unknown>;
    } catch (failure) {
      setError(new TypeError(`Config: ${failure instanceof Error ? failure.message : String(failure)}`));
      return;
    }
    const title = existing === undefined ? `Create binding ${key}?` : `Save binding ${existing.key}?`;
    const body =
      existing === undefined
        ? `A ${providerId} binding is created in ${companyId}. Nothing resolves to it until it is a target.`
        : 'Agents using it get the new settings on their next call. Secrets stay references.';
    if (!(await props.confirm(title, body, existing === undefined ? 'Create' : 'Save'))) return;
    try {
      const saved =
        existing === undefined
          ? await calls.createBinding({ key, providerId, config: parsedConfig, enabled, hooks })
          : await calls.updateBinding(existing.key, { providerId, config: parsedConfig, enabled, hooks, expectedRevision: existing.revision });
      props.onSaved(saved);
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <section className="panel" aria-labelledby="editor-title">
      <h2 id="editor-title">{existing === undefined ? 'New binding' : `Edit ${existing.key}`}</h2>
      <form onSubmit={save} className="form-grid" aria-label={existing === undefined ? 'New binding' : `Edit ${existing.key}`}>
        {existing === undefined ? <TextField label="Key" name="key" value={key} onChange={setKey} required hint="Letters, digits, . _ -; it cannot change later." /> : null}
        <SelectField
          label="Provider"
          name="providerId"
          value={providerId}
          onChange={setProviderId}
          empty="choose a provider"
          options={(providers.data ?? []).map((provider) => ({ value: provider.providerId, label: `${provider.providerId} (${provider.origin})` }))}
        />
        {provider.data === undefined ? null : <ProviderConfigHelp provider={provider.data} onUseExample={() => void applyExample()} />}
        <TextArea label="Config (JSON; secrets as references)" name="config" value={config} onChange={setConfig} rows={6} />
        <fieldset className="checks field-wide">
          <legend>State and capture hooks</legend>
          <CheckField label="Enabled" name="enabled" checked={enabled} onChange={setEnabled} />
          {hookNames.map(([name, label]) => (
            <CheckField key={name} label={label} name={name} checked={hooks[name]} onChange={(checked) => setHooks({ ...hooks, [name]: checked })} />
          ))}
        </fieldset>
        <div className="actions form-end field-wide">
          <button type="submit" disabled={providerId === '' || (existing === undefined && key.trim() === '')}>
            {existing === undefined ? 'Create binding' : 'Save binding'}
          </button>
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
        </div>
      </form>
      <ErrorBanner error={error ?? providers.error ?? provider.error} />
    </section>
  );
}
