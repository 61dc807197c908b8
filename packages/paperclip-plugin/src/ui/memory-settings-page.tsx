import { usePluginData, type PluginCompanySettingsPageProps } from '@paperclipai/plugin-sdk/ui';
import { memoryUiDataKeys, type UiSettingsData } from '../memory-ui-contract';
import { McpBridgeSection } from './mcp-bridge-section';

const onOff = (on: boolean) => (on ? 'on' : 'off');

/**
 * The company's memory settings as the worker applied them: bindings, the company default,
 * agent overrides and operation counts, and the MCP bridge. Bindings are edited in the plugin's settings form.
 */
export function MemorySettingsPage({ context }: PluginCompanySettingsPageProps) {
  const { data, loading, error } = usePluginData<UiSettingsData>(memoryUiDataKeys.settings, { companyId: context.companyId });
  if (loading) return <p>Loading memory settings…</p>;
  if (error !== null) return <p role="alert">Memory settings could not be read: {error.message}</p>;
  if (data === null) return null;
  const countOf = new Map(data.counts.map((count) => [count.bindingKey, count]));
  return (
    <div>
      <h2>Memory bindings</h2>
      {data.bindings.length === 0 ? <p>No binding yet: the first run gives this company a markdown binding named default.</p> : null}
      <table>
        <thead>
          <tr>
            <th>Key</th>
            <th>Provider</th>
            <th>Enabled</th>
            <th>Run capture</th>
            <th>Comment capture</th>
            <th>Document capture</th>
            <th>Operations (failed)</th>
          </tr>
        </thead>
        <tbody>
          {data.bindings.map((binding) => {
            const count = countOf.get(binding.key);
            return (
              <tr key={binding.key}>
                <td>
                  <code>{binding.key}</code>
                </td>
                <td>{binding.providerId}</td>
                <td>{onOff(binding.enabled)}</td>
                <td>{onOff(binding.hooks.postRunCapture)}</td>
                <td>{onOff(binding.hooks.issueCommentCapture)}</td>
                <td>{onOff(binding.hooks.issueDocumentCapture)}</td>
                <td>{count === undefined ? 0 : `${count.total} (${count.failed})`}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <h2>Targets</h2>
      <ul>
        {data.targets.map((target) => (
          <li key={`${target.targetType}:${target.agentId ?? ''}`}>
            {target.targetType === 'company' ? 'Company default' : `Agent ${target.agentId ?? ''}`}: <code>{target.bindingKey}</code>
          </li>
        ))}
      </ul>
      {context.companyId === null ? null : <McpBridgeSection companyId={context.companyId} />}
    </div>
  );
}
