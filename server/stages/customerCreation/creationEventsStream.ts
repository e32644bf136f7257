// GET /onboarding/customer-creation/:prospectId/events: the creation screen's live outcome as
// server-sent events. The page reconnects by itself (EventSource) and says which event it saw last. Served ahead of
// Express (server/pageKit/streams.ts): an open stream holds its answer, its viewer and its subscription, no session,
// no timer of its own.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CreationEvent, CreationEvents } from '../../infra/creationEvents.ts';
import type { CreationState } from '../../../shared/creationOutcome.ts';
import type { SseConnections } from '../../infra/sseConnections.ts';

export { createSseConnections, type SseConnections } from '../../infra/sseConnections.ts';

export interface CreationEventsHandlerDeps {
  events: CreationEvents;
  /** The open streams (shutdown ends them with a reconnect hint) and their shared heartbeat. */
  connections: SseConnections;
}

export type Viewer = (state: CreationState) => unknown;

/**
 * An event as its stream's bytes, made once per view key: one outcome reaches every open stream of its person at once
 * (thousands on one process), and streams that see it alike (one key) share one frame rather than each making its own.
 */
class Frames {
  private readonly made = new WeakMap<CreationEvent, Map<string, Buffer>>();

  of(e: CreationEvent, toView: Viewer, viewKey: string | undefined): string | Buffer {
    if (viewKey === undefined) return frame(e, toView);
    let byKey = this.made.get(e);
    if (!byKey) this.made.set(e, (byKey = new Map()));
    let made = byKey.get(viewKey);
    if (!made) byKey.set(viewKey, (made = Buffer.from(frame(e, toView))));
    return made;
  }
}

const frame = (e: CreationEvent, toView: Viewer) => `id: ${e.id}\nevent: creation\ndata: ${JSON.stringify(toView(e.state))}\n\n`;

function lastEventId(req: IncomingMessage): number | null {
  const raw = req.headers['last-event-id'];
  if (typeof raw !== 'string' || !/^\d+$/.test(raw.trim())) return null;
  return Number(raw.trim());
}

/**
 * One open stream, as little as it can be: its answer, its viewer, the last event id sent and how to
 * let go. Methods rather than closures made per stream; `receive` and `stop` are bound once.
 */
class OpenStream {
  gone = false;
  toView: Viewer | null = null;
  viewKey: string | undefined = undefined;
  /** Live events that arrive before the stream's head is written wait here. */
  early: CreationEvent[] | null = [];
  unsubscribe: (() => Promise<void>) | null = null;
  unregister: (() => void) | null = null;
  readonly receive: (e: CreationEvent) => void;
  readonly stop: () => void;

  constructor(
    private readonly res: ServerResponse,
    private readonly frames: Frames,
    public sent: number,
  ) {
    this.receive = this.onEvent.bind(this);
    this.stop = this.end.bind(this);
  }

  onEvent(e: CreationEvent): void {
    if (this.early) this.early.push(e);
    else this.write(e);
  }

  write(e: CreationEvent): void {
    if (this.gone || e.id <= this.sent) return;
    this.sent = e.id;
    this.res.write(this.frames.of(e, this.toView!, this.viewKey));
  }

  /** The client left, or shutdown ends the stream: nothing more is written, the subscription and registration go. */
  end(): void {
    if (this.gone) return;
    this.gone = true;
    const { unsubscribe, unregister } = this;
    this.unsubscribe = this.unregister = null;
    unregister?.();
    void unsubscribe?.().catch(() => {});
  }
}

/**
 * Answers one stream request for `prospectId`, whose listener sees each state through `toView` (never the raw state: the
 * view decides texts and links); the stream keeps it and nothing else of the request. `viewKey`: streams given the same
 * key see every state alike, so they share its frame. A rejection before the head is answered by
 * server/pageKit/streams.ts.
 */
export type CreationEventsHandler = (req: IncomingMessage, res: ServerResponse, prospectId: string, toView: Viewer, viewKey?: string) => Promise<void>;

export function createCreationEventsHandler(deps: CreationEventsHandlerDeps): CreationEventsHandler {
  const { events, connections } = deps;
  const frames = new Frames();

  return async (req, res, prospectId, toView, viewKey) => {
    const clientLast = lastEventId(req);
    const stream = new OpenStream(res, frames, clientLast ?? 0);
    res.on('close', stream.stop);
    stream.toView = toView;
    stream.viewKey = viewKey;

    // Subscribe before reading the latest, so nothing published in between is missed; ids dedupe.
    // Failing here (Redis down) still allows a proper error answer: no header has been sent yet.
    const unsubscribe = await events.subscribe(prospectId, stream.receive);
    if (stream.gone) {
      await unsubscribe();
      return;
    }
    stream.unsubscribe = unsubscribe;
    const latest = await events.latest(prospectId);
    if (stream.gone) return;

    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    res.flushHeaders();
    res.write('retry: 2000\n\n');

    // A page ahead of the latest id saw an earlier numbering (the event keys expired or the in-memory
    // stand-in restarted): give it the current state rather than leaving it waiting.
    if (latest && clientLast !== null && latest.id < clientLast && stream.sent === clientLast) stream.sent = 0;
    const first = [...(latest ? [latest] : []), ...stream.early!].sort((a, b) => a.id - b.id);
    stream.early = null;
    for (const e of first) stream.write(e);

    // Its heartbeat comes from the shared timer while it is registered. Shutdown ends the stream with a reconnect hint;
    // nothing of ours is written after it.
    stream.unregister = connections.add(res, stream.stop);
  };
}
