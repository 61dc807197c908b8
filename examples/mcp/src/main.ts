import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMcpExample } from './mcp-example';

const folder = await mkdtemp(join(tmpdir(), 'memplane-mcp-example-'));
try {
  const report = await runMcpExample(folder);
  console.log(`Served on ${report.url}`);
  console.log(`Tools: ${report.tools.join(', ')}`);
  console.log(`memory_note: ${report.noted}`);
  console.log(`memory_search:\n${report.found}`);
  console.log(`memory_search with companyId: ${report.refused.split('\n')[0]}`);
  console.log(`memory_search after memory_forget: ${report.afterForget}`);
} finally {
  await rm(folder, { recursive: true, force: true });
}
