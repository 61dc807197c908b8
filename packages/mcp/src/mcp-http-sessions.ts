import type { ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** One open MCP session of the HTTP transport. */
export interface McpHttpSession {
  /** The session's transport. */
  transport: StreamableHTTPServerTransport;
  /** The session's MCP server. */
  server: Server;
  /** The token that opened it; only that token may use it. */
  tokenId: string;
}

/** How many sessions may be open, and when an unused one is closed. */
export interface McpHttpSessionLimits {
  /** The most sessions open at once, all tokens together. */
  maxSessions: number;
  /** The most sessions one token may have open at once. */
  maxSessionsPerToken: number;
  /** How long after its last request started a session with no request being answered is closed, in milliseconds. */
  idleTimeoutMs: number;
  /** The clock, in milliseconds. */
  now(): number;
}

/** Why a new session was refused: 429 for the token's cap, 503 for the server's. */
export interface McpHttpSessionRefusal {
  /** The HTTP status. */
  status: 429 | 503;
  /** What the client reads. */
  message: string;
  /** When the token's oldest idle session expires, in whole seconds from now, if one of them is idle. */
  retryAfterSeconds?: number;
}

/** A slot held for a session being opened, released when it opened or failed to. */
export interface McpHttpSessionReservation {
  /** Gives the slot back; once is enough, more calls do nothing. */
  release(): void;
}

interface Entry extends McpHttpSession {
  /** When its last request started. */
  lastActiveAt: number;
  /** Requests of the session still being answered (an open event stream included). */
  inFlight: number;
}

/**
 * The open sessions of the HTTP transport, with two caps and an idle timeout. A session expires
 * when none of its requests is being answered and its last one started `idleTimeoutMs` ago or
 * more (the start, not the end, so what the clock says when a connection closes never matters).
 * Expired sessions are closed before any new session is counted and whenever their id is
 * used (it then reads as unknown), and by `expireIdle`, which the server also runs on a timer.
 * A session being opened holds its slot from the first check to its `initialize` answer, so
 * concurrent `initialize` requests of one token cannot pass the caps together.
 */
export class McpHttpSessions {
  private readonly open = new Map<string, Entry>();
  private readonly pendingByToken = new Map<string, number>();
  private pendingTotal = 0;

  constructor(private readonly limits: McpHttpSessionLimits) {}

  /** The open session with this id, or undefined when there is none or it expired (it is closed then). */
  find(id: string): McpHttpSession | undefined {
    const entry = this.open.get(id);
    if (entry === undefined) return undefined;
    if (this.expired(entry)) {
      this.expire(id, entry);
      return undefined;
    }
    return entry;
  }

  /** Marks the session in use from now until `response` is finished or its connection closes. */
  use(session: McpHttpSession, response: ServerResponse): void {
    const entry = session as Entry;
    entry.inFlight += 1;
    entry.lastActiveAt = this.limits.now();
    response.once('close', () => {
      entry.inFlight -= 1;
    });
  }

  /** Holds a slot for a new session of `tokenId`, or says why there is none. Expired sessions are closed first. */
  reserve(tokenId: string): McpHttpSessionReservation | McpHttpSessionRefusal {
    this.expireIdle();
    const own = [...this.open.values()].filter((entry) => entry.tokenId === tokenId);
    if (own.length + (this.pendingByToken.get(tokenId) ?? 0) >= this.limits.maxSessionsPerToken) {
      const idleSince = own.filter((entry) => entry.inFlight === 0).map((entry) => entry.lastActiveAt);
      const refusal: McpHttpSessionRefusal = {
        status: 429,
        message: `Too many open sessions for this token (at most ${this.limits.maxSessionsPerToken}): end one with DELETE, or wait until an idle one expires`,
      };
      if (idleSince.length > 0) {
        const waitMs = Math.min(...idleSince) + this.limits.idleTimeoutMs - this.limits.now();
        refusal.retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
      }
      return refusal;
    }
    if (this.open.size + this.pendingTotal >= this.limits.maxSessions) return { status: 503, message: 'Too many open sessions' };
    this.pendingByToken.set(tokenId, (this.pendingByToken.get(tokenId) ?? 0) + 1);
    this.pendingTotal += 1;
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        this.pendingTotal -= 1;
        const left = (this.pendingByToken.get(tokenId) ?? 1) - 1;
        if (left === 0) this.pendingByToken.delete(tokenId);
        else this.pendingByToken.set(tokenId, left);
      },
    };
  }

  /** Records a session that opened on `response` (its `initialize`), which turns its reservation into the session. */
  add(id: string, session: McpHttpSession, response: ServerResponse, reservation: McpHttpSessionReservation): void {
    const entry: Entry = { ...session, lastActiveAt: this.limits.now(), inFlight: 0 };
    this.open.set(id, entry);
    reservation.release();
    this.use(entry, response);
  }

  /** Forgets a session that closed. */
  remove(id: string): void {
    this.open.delete(id);
  }

  /** Whether the session with this id is open. */
  has(id: string): boolean {
    return this.open.has(id);
  }

  /** Closes every expired session. */
  expireIdle(): void {
    for (const [id, entry] of this.open) if (this.expired(entry)) this.expire(id, entry);
  }

  /** Closes every session. */
  async closeAll(): Promise<void> {
    const entries = [...this.open.values()];
    this.open.clear();
    await Promise.all(entries.map((entry) => entry.server.close()));
  }

  private expired(entry: Entry): boolean {
    return entry.inFlight === 0 && this.limits.now() - entry.lastActiveAt >= this.limits.idleTimeoutMs;
  }

  private expire(id: string, entry: Entry): void {
    this.open.delete(id);
    // Closing ends the session's transport; a failure there leaves nothing to do for the caller.
    entry.server.close().catch(() => undefined);
  }
}
