import { usePluginAction, usePluginData } from '@paperclipai/plugin-sdk/ui';
import { useState } from 'react';
import { memoryUiActionKeys, memoryUiDataKeys, type UiMcpBridgeClient, type UiMcpBridgeData } from '../memory-ui-contract';

const stateText: Record<UiMcpBridgeClient['file']['state'], string> = {
  absent: 'no file yet',
  'not-installed': 'not installed',
  installed: 'installed',
  outdated: 'installed from an older config: install again to update',
  conflict: 'conflict',
  unavailable: 'unavailable',
};

function fileText(file: UiMcpBridgeClient['file']): string {
  return 'reason' in file ? `${stateText[file.state]}: ${file.reason}` : stateText[file.state];
}

/**
 * The MCP bridge on the company's settings page: the command the bridge writes, each client's
 * folder and file, and the install and remove buttons (the worker lets only an owner or admin of
 * the company use them).
 */
export function McpBridgeSection({ companyId }: { companyId: string }) {
  const { data, loading, error, refresh } = usePluginData<UiMcpBridgeData>(memoryUiDataKeys.mcpBridge, { companyId });
  const install = usePluginAction(memoryUiActionKeys.installMcpBridge);
  const remove = usePluginAction(memoryUiActionKeys.removeMcpBridge);
  const [outcome, setOutcome] = useState<string | null>(null);
  const run = (action: typeof install, done: string) => () => {
    action({}).then(
      () => {
        setOutcome(done);
        refresh();
      },
      (failure: { message?: string }) => setOutcome(`Refused: ${failure.message ?? 'the worker refused the call'}`),
    );
  };
  if (loading) return <p>Loading the MCP bridge…</p>;
  if (error !== null) return <p role="alert">The MCP bridge status could not be read: {error.message}</p>;
  if (data === null) return null;
  return (
    <section>
      <h2>MCP bridge</h2>
      <p>
        Agents whose adapter does not show plugin tools reach the memory tools through the memplane MCP server. The bridge adds it to the files their
        clients read, in the folders configured for this company, and keeps every other server.
      </p>
      {'refusal' in data.launch ? (
        <p role="alert">No bridge can be written: {data.launch.refusal}</p>
      ) : (
        <p>
          Runs <code>{[data.launch.command, ...data.launch.args].join(' ')}</code>
          {data.launch.postgresUrlVariable === undefined ? null : <> with the Postgres URL from the agent&apos;s {data.launch.postgresUrlVariable}</>}
        </p>
      )}
      <table>
        <thead>
          <tr>
            <th>Client</th>
            <th>File</th>
            <th>Folder</th>
            <th>State</th>
          </tr>
        </thead>
        <tbody>
          {data.clients.map((client) => (
            <tr key={client.client}>
              <td>{client.displayName}</td>
              <td>
                <code>{client.relativePath}</code>
              </td>
              <td>{client.folder.configured ? <code>{client.folder.path ?? client.folderKey}</code> : `${client.folderKey}: not configured`}</td>
              <td>{fileText(client.file)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" onClick={run(install, 'The bridge is installed.')}>
        Install the bridge
      </button>{' '}
      <button type="button" onClick={run(remove, 'The bridge is removed.')}>
        Remove the bridge
      </button>
      {outcome === null ? null : <p role="status">{outcome}</p>}
    </section>
  );
}
