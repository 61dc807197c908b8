import { useState, type FormEvent } from 'react';
import { endpoints } from '../api/endpoints';
import type { MemoryBinding, MemoryBindingTarget } from '../api/types';
import { useConfirm } from '../components/confirm-dialog';
import { ErrorBanner } from '../components/error-banner';
import { SelectField, TextField } from '../components/field';
import { useInspector } from '../context';
import { capabilityLabel } from '../labels';
import { useAsync } from '../use-async';
import { BindingEditor, hookNames } from './binding-editor';
import { BindingHistory } from './binding-history';

/** The capability flags a binding's adapter declared, as short badges in words; the flag's own name is the tooltip. */
function CapabilityFlags({ binding }: { binding: MemoryBinding }) {
  const flags = Object.entries(binding.capabilities).filter(([name, value]) => value === true && name !== 'remoteOperations');
  if (flags.length === 0) return <span className="muted">core surface only</span>;
  return (
    <ul className="badges" aria-label={`Capabilities of ${binding.key}`}>
      {flags.map(([name]) => (
        <li key={name} className="badge" title={name}>
          {capabilityLabel(name)}
        </li>
      ))}
    </ul>
  );
}

const resolvedByText = { agent: 'agent override', company: 'company default', key: 'named by key' } as const;

/** One row of the resolution table: which binding an agent (or the company) gets, and why. */
function ResolutionRow({ agentId, onRemoveOverride }: { agentId: string | undefined; onRemoveOverride?: (() => void) | undefined }) {
  const { api, companyId } = useInspector();
  const resolved = useAsync(() => endpoints(api, companyId).resolve(agentId), [api, companyId, agentId]);
  return (
    <tr>
      <th scope="row">{agentId === undefined ? 'Company default' : `agent ${agentId}`}</th>
      <td>{resolved.data?.binding.key ?? (resolved.error === undefined ? '…' : 'none')}</td>
      <td>{resolved.data === undefined ? (resolved.error === undefined ? '…' : 'no binding resolves') : resolvedByText[resolved.data.resolvedBy]}</td>
      <td>{resolved.data?.binding.providerId ?? '—'}</td>
      <td>
        {onRemoveOverride === undefined ? null : (
          <button type="button" onClick={onRemoveOverride} aria-label={`Remove the override of agent ${agentId ?? ''}`}>
            Remove override
          </button>
        )}
      </td>
    </tr>
  );
}

/** Each agent's active binding and how it was resolved: the company default and every agent override, plus any agent asked about. */
function ResolutionTable(props: {
  targets: MemoryBindingTarget[];
  bindings: MemoryBinding[];
  onSetOverride: (agentId: string, bindingKey: string) => void;
  onRemoveOverride: (agentId: string) => void;
}) {
  const { targets } = props;
  const [overrideAgent, setOverrideAgent] = useState('');
  const [overrideBinding, setOverrideBinding] = useState('');
  const { api, companyId } = useInspector();
  const [asked, setAsked] = useState<string[]>([]);
  const [agent, setAgent] = useState('');
  // The service keeps no list of agents: besides the overrides, show the agents of the latest operations (one page, never the whole log).
  const recent = useAsync(async () => {
    const page = await endpoints(api, companyId).operations({}, undefined, 200);
    return [...new Set(page.items.flatMap((entry) => (entry.scope.agentId === undefined ? [] : [entry.scope.agentId])))].sort();
  }, [api, companyId]);
  const agents = [...new Set([...targets.filter((target) => target.targetType === 'agent').map((target) => target.targetId), ...(recent.data ?? []), ...asked])];
  const ask = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = agent.trim();
    if (trimmed !== '' && !asked.includes(trimmed)) setAsked([...asked, trimmed]);
    setAgent('');
  };
  return (
    <section aria-labelledby="resolution-title">
      <h2 id="resolution-title">Active binding per agent</h2>
      <p className="muted">The company default, every agent override, the agents of the latest 200 operations, and any agent you resolve.</p>
      <div className="table-scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">Who</th>
              <th scope="col">Binding</th>
              <th scope="col">Resolved by</th>
              <th scope="col">Provider</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            <ResolutionRow agentId={undefined} />
            {agents.map((agentId) => (
              <ResolutionRow
                key={agentId}
                agentId={agentId}
                onRemoveOverride={targets.some((target) => target.targetType === 'agent' && target.targetId === agentId) ? () => props.onRemoveOverride(agentId) : undefined}
              />
            ))}
          </tbody>
        </table>
      </div>
      <form className="inline-form" onSubmit={ask} aria-label="Resolve an agent">
        <TextField label="Resolve another agent" name="resolveAgent" value={agent} onChange={setAgent} placeholder="agent id" />
        <button type="submit">Resolve</button>
      </form>
      <form
        className="inline-form"
        aria-label="Point an agent at a binding"
        onSubmit={(event) => {
          event.preventDefault();
          if (overrideAgent.trim() !== '' && overrideBinding !== '') props.onSetOverride(overrideAgent.trim(), overrideBinding);
        }}
      >
        <TextField label="Agent to override" name="overrideAgent" value={overrideAgent} onChange={setOverrideAgent} placeholder="agent id" />
        <SelectField label="Override binding" name="overrideBinding" value={overrideBinding} onChange={setOverrideBinding} options={props.bindings.map((binding) => binding.key)} empty="choose a binding" />
        <button type="submit" disabled={overrideAgent.trim() === '' || overrideBinding === ''}>
          Set override
        </button>
      </form>
    </section>
  );
}

/** Bindings: resolution, the bindings with their capabilities, create, edit, enable and disable, and history. */
export function BindingsPage() {
  const { api, companyId } = useInspector();
  const calls = endpoints(api, companyId);
  const [generation, setGeneration] = useState(0);
  const bindings = useAsync(() => calls.bindings(), [api, companyId, generation]);
  const targets = useAsync(() => calls.targets(), [api, companyId, generation]);
  const [editing, setEditing] = useState<MemoryBinding | 'new' | undefined>(undefined);
  const [historyOf, setHistoryOf] = useState<MemoryBinding | undefined>(undefined);
  const [failure, setFailure] = useState<unknown>(undefined);
  const [status, setStatus] = useState<string | undefined>(undefined);
  const [dialog, confirm] = useConfirm();
  const changed = (message: string) => {
    setStatus(message);
    setGeneration((value) => value + 1);
  };

  const toggle = async (binding: MemoryBinding) => {
    const verb = binding.enabled ? 'Disable' : 'Enable';
    const body = binding.enabled
      ? `Agents resolving to ${binding.key} get no memory from it until it is enabled again.`
      : `Agents and the company default pointing at ${binding.key} use it again.`;
    if (!(await confirm(`${verb} binding ${binding.key}?`, body, verb))) return;
    setFailure(undefined);
    try {
      await calls.updateBinding(binding.key, { enabled: !binding.enabled, expectedRevision: binding.revision });
      changed(`${binding.key} ${binding.enabled ? 'disabled' : 'enabled'}.`);
    } catch (error) {
      setFailure(error);
    }
  };
  const makeDefault = async (binding: MemoryBinding) => {
    if (!(await confirm(`Make ${binding.key} the company default?`, 'Every agent without an override resolves to it from now on.', 'Make default'))) return;
    setFailure(undefined);
    try {
      await calls.setTarget({ targetType: 'company' }, binding.key);
      changed(`${binding.key} is the company default.`);
    } catch (error) {
      setFailure(error);
    }
  };

  const setOverride = async (agentId: string, key: string) => {
    if (!(await confirm(`Point agent ${agentId} at ${key}?`, `From its next call, agent ${agentId} reads and writes memory through ${key}, not the company default.`, 'Set override'))) return;
    setFailure(undefined);
    try {
      await calls.setTarget({ targetType: 'agent', agentId }, key);
      changed(`Agent ${agentId} now uses ${key}.`);
    } catch (error) {
      setFailure(error);
    }
  };
  const removeOverride = async (agentId: string) => {
    if (!(await confirm(`Remove the override of agent ${agentId}?`, `Agent ${agentId} resolves to the company default from its next call.`, 'Remove override'))) return;
    setFailure(undefined);
    try {
      await calls.removeAgentOverride(agentId);
      changed(`Agent ${agentId} uses the company default.`);
    } catch (error) {
      setFailure(error);
    }
  };

  const defaultTarget = targets.data?.find((target) => target.targetType === 'company');
  return (
    <>
      {dialog}
      {status === undefined ? null : (
        <p role="status" className="notice">
          {status}
        </p>
      )}
      <ErrorBanner error={failure ?? bindings.error ?? targets.error} />
      {targets.data === undefined ? null : (
        <ResolutionTable key={generation} targets={targets.data} bindings={bindings.data ?? []} onSetOverride={(agentId, key) => void setOverride(agentId, key)} onRemoveOverride={(agentId) => void removeOverride(agentId)} />
      )}
      <section aria-labelledby="bindings-title">
        <div className="section-head">
          <h2 id="bindings-title">Bindings</h2>
          <button type="button" onClick={() => setEditing('new')}>
            New binding
          </button>
        </div>
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Provider</th>
                <th scope="col">State</th>
                <th scope="col">Capabilities</th>
                <th scope="col">Capture hooks</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {(bindings.data ?? []).map((binding) => (
                <tr key={binding.id}>
                  <th scope="row">
                    {binding.key}
                    {defaultTarget?.bindingId === binding.id ? <span className="badge strong">company default</span> : null}
                  </th>
                  <td>{binding.providerId}</td>
                  <td>
                    {binding.enabled ? 'enabled' : 'disabled'} · rev {binding.revision}
                  </td>
                  <td>
                    <CapabilityFlags binding={binding} />
                  </td>
                  <td>
                    {hookNames
                      .filter(([name]) => binding.hooks[name])
                      .map(([, label]) => label)
                      .join(', ') || 'none'}
                  </td>
                  <td className="actions">
                    <button type="button" onClick={() => setEditing(binding)} aria-label={`Edit ${binding.key}`}>
                      Edit
                    </button>
                    <button type="button" onClick={() => void toggle(binding)} aria-label={`${binding.enabled ? 'Disable' : 'Enable'} ${binding.key}`}>
                      {binding.enabled ? 'Disable' : 'Enable'}
                    </button>
                    {defaultTarget?.bindingId === binding.id ? null : (
                      <button type="button" onClick={() => void makeDefault(binding)} aria-label={`Make ${binding.key} the company default`}>
                        Make default
                      </button>
                    )}
                    <button type="button" onClick={() => setHistoryOf(binding)} aria-label={`History of ${binding.key}`}>
                      History
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {bindings.data !== undefined && bindings.data.length === 0 ? <p>No bindings yet.</p> : null}
      </section>
      {editing === undefined ? null : (
        <BindingEditor
          binding={editing === 'new' ? undefined : editing}
          confirm={confirm}
          onClose={() => setEditing(undefined)}
          onSaved={(binding) => {
            setEditing(undefined);
            changed(`${binding.key} saved (revision ${binding.revision}).`);
          }}
        />
      )}
      {historyOf === undefined ? null : <BindingHistory binding={historyOf} onClose={() => setHistoryOf(undefined)} />}
    </>
  );
}
