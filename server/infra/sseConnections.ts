// Open server-sent-event streams of this process, so graceful shutdown can end them with a reconnect
// hint instead of leaving clients to notice a dead socket; and their heartbeat: one timer for every open stream,
// not an interval per stream, armed only while a stream is open.
import type { ServerResponse } from 'node:http';

export interface SseConnections {
  /**
   * Registers a stream; the answer unregisters it. After closeAll a new stream is ended at once. `stop`: stops the
   * stream's own writers (events), called before its reconnect hint is written. While registered, the stream gets a
   * heartbeat comment every `heartbeatMs`.
   */
  add(res: ServerResponse, stop?: () => void): () => void;
  /** Tells each client to reconnect soon (to another process) and ends its stream. */
  closeAll(): void;
  readonly size: number;
}

/** A comment line that keeps proxies from closing an idle stream (SSE_HEARTBEAT_MS). */
export const HEARTBEAT = ': heartbeat\n\n';

/** `heartbeatMs`: how often every open stream gets a heartbeat comment (SSE_HEARTBEAT_MS, 15000). */
export function createSseConnections(options: { heartbeatMs?: number } = {}): SseConnections {
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const open = new Map<ServerResponse, (() => void) | undefined>();
  let closing = false;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  // A stream opened just before a tick gets its first heartbeat early, never later than heartbeatMs after it opened.
  const beat = () => {
    for (const res of open.keys()) if (!res.writableEnded) res.write(HEARTBEAT);
  };
  const unregister = (res: ServerResponse) => {
    open.delete(res);
    if (open.size > 0 || heartbeat === undefined) return;
    clearInterval(heartbeat);
    heartbeat = undefined;
  };
  // The stream's writers stop first: the answer's end may be held back a while after end() (a middleware that
  // wraps it), and an event written meanwhile would follow the hint.
  const end = (res: ServerResponse, stop: (() => void) | undefined) => {
    stop?.();
    if (res.writableEnded) return;
    res.write('retry: 1000\n\n');
    res.end();
  };
  return {
    add(res, stop) {
      if (closing) {
        end(res, stop);
        return () => {};
      }
      open.set(res, stop);
      if (heartbeat === undefined) {
        heartbeat = setInterval(beat, heartbeatMs);
        // The open sockets keep the process alive, not their heartbeat.
        heartbeat.unref();
      }
      return () => unregister(res);
    },
    closeAll() {
      closing = true;
      clearInterval(heartbeat);
      heartbeat = undefined;
      const streams = [...open];
      open.clear();
      for (const [res, stop] of streams) end(res, stop);
    },
    get size() {
      return open.size;
    },
  };
}
