import { useState, type FormEvent, type ReactNode } from 'react';
import type { ScopeInput } from '../api/endpoints';
import { endpoints } from '../api/endpoints';
import { useInspector } from '../context';
import { useAsync } from '../use-async';
import { SelectField, TextField } from './field';

/** The scope fields a person can narrow by (the company is the page's). */
export const scopeFieldNames = ['agentId', 'projectId', 'issueId', 'runId', 'subjectId', 'namespace'] as const;
const scopeLabels: Record<(typeof scopeFieldNames)[number], string> = {
  agentId: 'Agent',
  projectId: 'Project',
  issueId: 'Issue',
  runId: 'Run',
  subjectId: 'Subject',
  namespace: 'Namespace',
};

/** A binding and a scope, read from route parameters. */
export interface BindingScope {
  bindingKey?: string;
  scope: ScopeInput;
}

/** Reads a binding and scope from route parameters. */
export function bindingScopeOf(params: URLSearchParams): BindingScope {
  const scope: ScopeInput = {};
  for (const name of scopeFieldNames) {
    const value = params.get(name);
    if (value !== null && value !== '') scope[name] = value;
  }
  const bindingKey = params.get('binding') ?? '';
  return bindingKey === '' ? { scope } : { bindingKey, scope };
}

/** Writes a binding and scope as route parameters. */
export function bindingScopeParams(value: BindingScope): Record<string, string | undefined> {
  return { binding: value.bindingKey, ...value.scope };
}

/** Picks a binding (or resolution) and a scope; `children` adds fields of the page (the query text). */
export function BindingScopeForm(props: {
  label: string;
  submitLabel: string;
  initial: BindingScope;
  onSubmit: (value: BindingScope) => void;
  /** Told the binding key as it is picked (`''` for resolution), for fields that depend on the binding. */
  onBindingKeyChange?: (bindingKey: string) => void;
  children?: ReactNode;
}) {
  const { api, companyId } = useInspector();
  const bindings = useAsync(() => endpoints(api, companyId).bindings(), [api, companyId]);
  const [bindingKey, setBindingKey] = useState(props.initial.bindingKey ?? '');
  const [scope, setScope] = useState<Record<string, string>>({ ...(props.initial.scope as Record<string, string>) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const chosen: ScopeInput = {};
    for (const name of scopeFieldNames) {
      const value = scope[name]?.trim();
      if (value !== undefined && value !== '') chosen[name] = value;
    }
    props.onSubmit(bindingKey === '' ? { scope: chosen } : { bindingKey, scope: chosen });
  };
  return (
    <form className="filters" onSubmit={submit} aria-label={props.label}>
      <SelectField
        label="Binding"
        name="binding"
        value={bindingKey}
        onChange={(key) => {
          setBindingKey(key);
          props.onBindingKeyChange?.(key);
        }}
        empty="resolved for the scope"
        options={(bindings.data ?? []).map((binding) => ({ value: binding.key, label: `${binding.key} (${binding.providerId}${binding.enabled ? '' : ', disabled'})` }))}
      />
      {scopeFieldNames.map((name) => (
        <TextField key={name} label={scopeLabels[name]} name={name} value={scope[name] ?? ''} onChange={(value) => setScope({ ...scope, [name]: value })} />
      ))}
      {props.children}
      <div className="actions">
        <button type="submit">{props.submitLabel}</button>
      </div>
    </form>
  );
}
