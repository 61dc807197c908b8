import process from 'node:process';
import type { Readable, Writable } from 'node:stream';
import { MemoryConfigurationError, MemoryValidationError } from '@memplane/core';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The longest line read by default, in bytes: the request body limit of the HTTP transport (4 MiB). */
export const defaultMaxStdioLineBytes = 4 * 1024 * 1024;

/** JSON-RPC's code for a line that is not JSON (or not UTF-8). */
const parseErrorCode = -32700;
/** JSON-RPC's code for JSON that is not a request, notification or response. */
const invalidRequestCode = -32600;

/** Settings of {@link McpStdioTransport}. */
export interface McpStdioTransportOptions {
  /** Where messages come from. Default `process.stdin`. */
  input?: Readable;
  /** Where messages go. Default `process.stdout`. */
  output?: Writable;
  /** The longest line accepted, in bytes; a longer one is answered with Invalid Request and skipped. Default 4 MiB. */
  maxLineBytes?: number;
}

const newline = 0x0a;
const carriageReturn = 0x0d;

/**
 * The stdio transport of the MCP server: one JSON-RPC message per line, in and out. Unlike the
 * SDK's, it never drops a bad line silently and never stops on one: a line that is not UTF-8 or
 * not JSON is answered with Parse error (-32700, id null); JSON that is not one JSON-RPC message
 * (`{}`, a batch array, a missing `jsonrpc` or `method`) with Invalid Request (-32600, with the
 * request's id when it has a usable one); a line longer than `maxLineBytes` with Invalid Request
 * as soon as it passes the limit, its bytes discarded up to the next line break. Blank lines are
 * skipped. The next line is read as usual.
 */
export class McpStdioTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T) => void) | undefined;

  private readonly input: Readable;
  private readonly output: Writable;
  private readonly maxLineBytes: number;
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Set while the bytes of a line that passed the limit are skipped. */
  private discarding = false;
  private started = false;
  private closed = false;

  constructor(options: McpStdioTransportOptions = {}) {
    const maxLineBytes = options.maxLineBytes ?? defaultMaxStdioLineBytes;
    if (!Number.isInteger(maxLineBytes) || maxLineBytes < 1) {
      throw new MemoryValidationError({ target: 'stdio transport settings', issues: [{ path: 'maxLineBytes', message: 'must be a positive whole number of bytes' }] });
    }
    this.input = options.input ?? process.stdin;
    this.output = options.output ?? process.stdout;
    this.maxLineBytes = maxLineBytes;
  }

  async start(): Promise<void> {
    if (this.started) throw new MemoryConfigurationError({ message: 'The stdio transport is already started (connect() starts it).' });
    this.started = true;
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    const line = `${JSON.stringify(message)}\n`;
    await new Promise<void>((resolveSent) => {
      if (this.output.write(line)) resolveSent();
      else this.output.once('drain', resolveSent);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.pending = [];
    this.pendingBytes = 0;
    this.onclose?.();
  }

  private readonly onInputError = (error: Error): void => {
    this.onerror?.(error);
  };

  private readonly onData = (chunk: Buffer | string): void => {
    let bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    while (!this.closed && bytes.length > 0) {
      const end = bytes.indexOf(newline);
      const part = end === -1 ? bytes : bytes.subarray(0, end);
      bytes = end === -1 ? Buffer.alloc(0) : bytes.subarray(end + 1);
      if (!this.discarding) {
        if (this.pendingBytes + part.length > this.maxLineBytes) {
          this.pending = [];
          this.pendingBytes = 0;
          this.discarding = true;
          this.answer(invalidRequestCode, `Invalid Request: a line must not exceed ${this.maxLineBytes} bytes`, null);
        } else {
          this.pending.push(part);
          this.pendingBytes += part.length;
        }
      }
      if (end === -1) return;
      if (this.discarding) {
        this.discarding = false;
        continue;
      }
      const line = Buffer.concat(this.pending, this.pendingBytes);
      this.pending = [];
      this.pendingBytes = 0;
      this.readLine(line);
    }
  };

  private readLine(bytes: Buffer): void {
    const line = bytes.length > 0 && bytes[bytes.length - 1] === carriageReturn ? bytes.subarray(0, bytes.length - 1) : bytes;
    let text: string;
    try {
      text = this.decoder.decode(line);
    } catch {
      return this.answer(parseErrorCode, 'Parse error: the line is not valid UTF-8', null);
    }
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return this.answer(parseErrorCode, 'Parse error: the line is not valid JSON', null);
    }
    if (Array.isArray(value)) return this.answer(invalidRequestCode, 'Invalid Request: batches are not supported; send one message per line', null);
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) return this.answer(invalidRequestCode, 'Invalid Request: not a JSON-RPC 2.0 request, notification or response', usableIdOf(value));
    this.onmessage?.(parsed.data);
  }

  private answer(code: number, message: string, id: string | number | null): void {
    // The id is `null` in the wire format when the request's id could not be read (JSON-RPC 2.0 §5).
    const response = { jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage;
    this.send(response).catch((error: unknown) => {
      if (error instanceof Error) this.onerror?.(error);
    });
  }
}

/** The id of an invalid request, when it is one a client could match (a string or a whole number), else null. */
function usableIdOf(value: unknown): string | number | null {
  if (typeof value !== 'object' || value === null) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : null;
}
