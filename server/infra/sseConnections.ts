// Open server-sent-event streams of this process, so graceful shutdown can end them with a reconnect
// hint instead of leaving clients to notice a dead socket.
import type { ServerResponse } from 'node:http';

export interface SseConnections {
  /** Registers a stream; the answer unregisters it. After closeAll a new stream is ended at once. */
  add(res: ServerResponse): () => void;
  /** Tells each client to reconnect soon (to another process) and ends its stream. */
  closeAll(): void;
  readonly size: number;
}

export function createSseConnections(): SseConnections {
  const open = new Set<ServerResponse>();
  let closing = false;
  const end = (res: ServerResponse) => {
    if (res.writableEnded) return;
    res.write('retry: 1000\n\n');
    res.end();
  };
  return {
    add(res) {
      if (closing) {
        end(res);
        return () => {};
      }
      open.add(res);
      return () => {
        open.delete(res);
      };
    },
    closeAll() {
      closing = true;
      for (const res of open) end(res);
      open.clear();
    },
    get size() {
      return open.size;
    },
  };
}
