import { StatusBadge, useHostNavigation, usePluginData, type PluginDetailTabProps } from '@paperclipai/plugin-sdk/ui';
import { memoryUiDataKeys, type UiIssueMemoryData, type UiSource } from '../memory-ui-contract';
import { backlinksOf } from './memory-backlinks';

function Backlinks({ source }: { source: UiSource | undefined }) {
  const navigation = useHostNavigation();
  const links = backlinksOf(source);
  return (
    <span>
      {source === undefined ? '' : `${source.kind} `}
      {links.map((link) => (
        <a key={link.path} {...navigation.linkProps(link.path)} style={{ marginRight: 8 }}>
          {link.label}
        </a>
      ))}
      {source?.runId === undefined ? null : <code>run {source.runId}</code>}
    </span>
  );
}

/** The issue tab: the memory operations on this issue, and the records written for it, with backlinks. */
export function IssueMemoryTab({ context }: PluginDetailTabProps) {
  const { data, loading, error, refresh } = usePluginData<UiIssueMemoryData>(memoryUiDataKeys.issue, {
    companyId: context.companyId,
    issueId: context.entityId,
  });
  if (loading) return <p>Loading memory…</p>;
  if (error !== null) return <p role="alert">Memory could not be read: {error.message}</p>;
  if (data === null) return null;
  return (
    <div>
      <button type="button" onClick={refresh}>
        Refresh
      </button>
      <h3>Records ({data.records.length})</h3>
      {data.unbound ? <p>This company has no memory binding yet; set one in the company settings, Memory.</p> : null}
      <ul>
        {data.records.map((record) => (
          <li key={record.recordId}>
            <p>{record.text}</p>
            <small>
              <code>{record.recordId}</code> <Backlinks source={record.source} />
            </small>
          </li>
        ))}
      </ul>
      <h3>Operations ({data.operations.length})</h3>
      {data.inspectorUrl !== undefined && /^https?:\/\//i.test(data.inspectorUrl) ? (
        <p>
          <a href={data.inspectorUrl} target="_blank" rel="noopener noreferrer">
            Open this issue's operations in the memplane inspector
          </a>
        </p>
      ) : null}
      <table>
        <thead>
          <tr>
            <th>When</th>
            <th>Operation</th>
            <th>Status</th>
            <th>Binding</th>
            <th>Agent</th>
            <th>Source</th>
          </tr>
        </thead>
        <tbody>
          {data.operations.map((operation) => (
            <tr key={operation.id}>
              <td>{operation.createdAt}</td>
              <td>
                {operation.operation}
                {operation.hookKind === undefined ? '' : ` (${operation.hookKind})`}
              </td>
              <td>
                <StatusBadge
                  label={operation.status === 'failed' ? `failed ${operation.errorCode ?? ''}`.trim() : `${operation.latencyMs} ms`}
                  status={operation.status === 'failed' ? 'error' : 'ok'}
                />
              </td>
              <td>{operation.bindingKey ?? '—'}</td>
              <td>{operation.agentId ?? '—'}</td>
              <td>
                <Backlinks source={operation.source} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
