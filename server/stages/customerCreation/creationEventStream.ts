// GET /onboarding/customer-creation/:prospectId/events: the creation screen's live outcome as
// server-sent events. The page reconnects by itself (EventSource) and says which event it saw last.
import type { Request, RequestHandler } from 'express';
import type { CreationEvent, CreationEvents } from '../../infra/creationEvents.ts';
import type { CreationState } from '../../../shared/creationOutcome.ts';
import type { SseConnections } from '../../infra/sseConnections.ts';

export { createSseConnections, type SseConnections } from '../../infra/sseConnections.ts';

export interface CreationEventsHandlerDeps {
  events: CreationEvents;
  /** Comment line interval that keeps proxies from closing an idle stream (15000). */
  heartbeatMs: number;
  /** What the page receives for a state (never the raw state: the view decides texts and links). */
  toView: (state: CreationState, req: Request) => unknown;
  authorize: (req: Request, prospectId: string) => boolean;
  connections: SseConnections;
}

function lastEventId(req: Request): number | null {
  const raw = req.get('last-event-id');
  if (raw === undefined || !/^\d+$/.test(raw.trim())) return null;
  return Number(raw.trim());
}

export function createCreationEventsHandler(deps: CreationEventsHandlerDeps): RequestHandler<{ prospectId: string }> {
  const { events, heartbeatMs, toView, authorize, connections } = deps;

  return async (req, res) => {
    const prospectId = req.params.prospectId;
    if (!authorize(req, prospectId)) {
      res.status(403).json({ error: 'forbidden' });
      return;
    }

    let gone = false;
    const cleanups: Array<() => unknown> = [];
    const cleanup = () => {
      if (gone) return;
      gone = true;
      for (const c of cleanups.splice(0)) void Promise.resolve(c()).catch(() => {});
    };
    res.on('close', cleanup);

    const clientLast = lastEventId(req);
    let sent = clientLast ?? 0;
    const write = (e: CreationEvent) => {
      if (gone || e.id <= sent) return;
      sent = e.id;
      res.write(`id: ${e.id}\nevent: creation\ndata: ${JSON.stringify(toView(e.state, req))}\n\n`);
    };
    // Live events that arrive before the stream's head is written wait here.
    let early: CreationEvent[] | null = [];
    const send = (e: CreationEvent) => (early ? early.push(e) : write(e));

    // Subscribe before reading the latest, so nothing published in between is missed; ids dedupe.
    // Failing here (Redis down) still allows a proper error answer: no header has been sent yet.
    const unsubscribe = await events.subscribe(prospectId, send);
    cleanups.push(unsubscribe);
    if (gone) {
      await unsubscribe();
      return;
    }
    const latest = await events.latest(prospectId);
    if (gone) return;

    // writeHead rather than res.set: Express would append a charset to the content type.
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
    if (latest && clientLast !== null && latest.id < clientLast && sent === clientLast) sent = 0;
    const first = [...(latest ? [latest] : []), ...early].sort((a, b) => a.id - b.id);
    early = null;
    for (const e of first) write(e);

    const heartbeat = setInterval(() => {
      if (!gone) res.write(': heartbeat\n\n');
    }, heartbeatMs);
    cleanups.push(() => clearInterval(heartbeat));
    cleanups.push(connections.add(res));
  };
}
