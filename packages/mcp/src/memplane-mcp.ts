import { mcpCommand } from './mcp-command';

// The bin: stdout belongs to the MCP protocol on stdio, so the command writes only its own output there.
const code = await mcpCommand.run(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
}, { commandName: 'memplane-mcp' });
process.exit(code);
