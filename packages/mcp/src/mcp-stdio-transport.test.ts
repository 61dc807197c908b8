import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpStdioTransport } from './mcp-stdio-transport';

const bin = fileURLToPath(new URL('./memplane-mcp.ts', import.meta.url));
const tsconfig = fileURLToPath(new URL('./__fixtures__/tsconfig.workspace-sources.json', import.meta.url));
const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');

type Answer = { jsonrpc: string; id: string | number | null; result?: Record<string, unknown>; error?: { code: number; message: string } };

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'attacker', version: '1' } } };
const parseError = (id: string | number | null = null) => ({ jsonrpc: '2.0', id, error: { code: -32700, message: expect.stringMatching(/^Parse error/) } });
const invalidRequest = (id: string | number | null = null) => ({ jsonrpc: '2.0', id, error: { code: -32600, message: expect.stringMatching(/^Invalid Request/) } });

describe('memplane-mcp on stdio, fed bad lines (a spawned server)', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'memplane-mcp-stdio-lines-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('answers every bad line with Parse error or Invalid Request on stdout, and then still initializes', async () => {
    const child = spawn(process.execPath, [tsxCli, '--tsconfig', tsconfig, bin, '--data-dir', folder, '--company', 'acme', '--agent', 'planner'], {
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const answers: Answer[] = [];
    // Every line until the answer to the last request (id 2), or until the server ends its output.
    const finished = new Promise<void>((resolveFinished) => {
      let buffered = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString('utf8');
        let end: number;
        while ((end = buffered.indexOf('\n')) !== -1) {
          const answer = JSON.parse(buffered.slice(0, end)) as Answer;
          buffered = buffered.slice(end + 1);
          answers.push(answer);
          if (answer.id === 2) resolveFinished();
        }
      });
      child.stdout.on('end', () => resolveFinished());
    });
    const exited = new Promise<number | null>((resolveExit) => child.on('exit', (code) => resolveExit(code)));
    const write = (bytes: string | Buffer) => child.stdin.write(bytes);

    write('this is not json\n');
    write('{}\n');
    write('{"jsonrpc":"2.0"}\n');
    write('[]\n');
    write('[{"jsonrpc":"2.0","id":9,"method":"ping"}]\n');
    write('{"jsonrpc":"2.0","id":7,"method":5}\n');
    write('"just a string"\n');
    write('{"jsonrpc":"1.0","id":8,"method":"ping"}\n');
    write('{"jsonrpc":"2.0","id":{"nested":true}}\n');
    // A ping whose string holds bytes that are not UTF-8: a lenient decoder would answer the ping.
    write(Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":3,"method":"ping","params":{"_meta":{"x":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}}}\n')]));
    write('\n   \r\n');
    // An 11 MiB line: past the SDK transport's 10 MiB buffer, which then closes the session.
    write(`{"jsonrpc":"2.0","id":4,"method":"ping","params":{"_meta":{"pad":"${'a'.repeat(11 * 1024 * 1024)}"}}}\n`);
    write(`${JSON.stringify(initialize)}\r\n`);
    write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' })}\n`);
    await finished;
    child.stdin.end();
    await exited;

    expect(answers, stderr).toEqual([
      parseError(),
      invalidRequest(),
      invalidRequest(),
      invalidRequest(),
      invalidRequest(),
      invalidRequest(7),
      invalidRequest(),
      invalidRequest(8),
      invalidRequest(),
      parseError(),
      invalidRequest(),
      { jsonrpc: '2.0', id: 1, result: expect.objectContaining({ serverInfo: expect.objectContaining({ name: expect.any(String) }) }) },
      { jsonrpc: '2.0', id: 2, result: {} },
    ]);
  }, 60_000);
});

describe('McpStdioTransport', () => {
  function connected(maxLineBytes?: number) {
    const input = new PassThrough();
    const output = new PassThrough();
    const transport = new McpStdioTransport({ input, output, ...(maxLineBytes === undefined ? {} : { maxLineBytes }) });
    const received: JSONRPCMessage[] = [];
    transport.onmessage = (message) => received.push(message);
    const written = () =>
      String(output.read() ?? '')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as Answer);
    return { input, transport, received, written };
  }

  it('joins a line split anywhere, even inside a character, and reads several lines from one chunk', async () => {
    const { input, transport, received, written } = connected();
    await transport.start();
    const bytes = Buffer.from('{"jsonrpc":"2.0","method":"notifications/note","params":{"text":"née"}}\n{"jsonrpc":"2.0","id":"a","method":"ping"}\n');
    const split = bytes.indexOf(0xc3) + 1;
    input.write(bytes.subarray(0, split));
    input.write(bytes.subarray(split));
    expect(received).toEqual([
      { jsonrpc: '2.0', method: 'notifications/note', params: { text: 'née' } },
      { jsonrpc: '2.0', id: 'a', method: 'ping' },
    ]);
    expect(written()).toEqual([]);
  });

  it('answers a line that passes the limit once, while its bytes still arrive, and reads the line after it', async () => {
    const { input, transport, received, written } = connected(64);
    await transport.start();
    input.write('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"');
    input.write('x'.repeat(40));
    expect(written()).toEqual([invalidRequest()]);
    input.write('x'.repeat(1000));
    input.write('"}}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    expect(written()).toEqual([]);
    expect(received).toEqual([{ jsonrpc: '2.0', id: 2, method: 'ping' }]);
  });

  it('reads nothing more once closed', async () => {
    const { input, transport, received } = connected();
    let closed = 0;
    transport.onclose = () => (closed += 1);
    await transport.start();
    await transport.close();
    await transport.close();
    input.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    expect(received).toEqual([]);
    expect(closed).toBe(1);
  });

  it('refuses a limit that is not a positive whole number of bytes', () => {
    for (const maxLineBytes of [0, -1, 1.5, Number.NaN]) {
      expect(() => new McpStdioTransport({ maxLineBytes })).toThrowError(expect.objectContaining({ code: 'MEMORY_VALIDATION' }));
    }
  });
});
