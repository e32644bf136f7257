// Creation progress as numbered events per prospect: the worker publishes, every web process streams
// them to the creation screen (server-sent events). The latest event is kept so a (re)connecting page
// starts from the current state; ids grow per prospect so Last-Event-ID can skip what a page has seen.
import { EventEmitter } from 'node:events';
import { z } from 'zod';
import type { Logger } from 'pino';
import { creationOutcomes, type CreationState } from '../../shared/creationOutcome.ts';
import { redisScript, within, type RedisConnection, type RedisSubscriber } from './redis.ts';
import { creationEventKeys } from './keyLayout.ts';
import { outsideRequest } from './deadline.ts';

export type CreationEvent = { id: number; state: CreationState };

export interface CreationEvents {
  /** Publishes a new event, or answers the latest unchanged when it has the same outcome, attempt and run. */
  publish(state: CreationState): Promise<CreationEvent>;
  latest(prospectId: string): Promise<CreationEvent | null>;
  /** Resolves once listening; the answer unsubscribes. */
  subscribe(prospectId: string, listener: (e: CreationEvent) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export const CREATION_EVENT_TTL_SECONDS = 24 * 3600;

const creationEventSchema = z.object({
  id: z.number().int().positive(),
  state: z.object({
    prospectId: z.string(),
    outcome: z.enum(creationOutcomes),
    attempt: z.number().int().nonnegative(),
    runId: z.string().optional(),
    at: z.string(),
  }),
});

const sameState = (a: CreationState, b: CreationState) => a.outcome === b.outcome && a.attempt === b.attempt && (a.runId ?? '') === (b.runId ?? '');

// --- Redis ------------------------------------------------------------------------

// Compare, number, store and publish in one step, so two publishers (a stalled job re-run next to its
// original) can neither duplicate a state nor hand out the same id twice. The new event's id is the latest's plus
// one: one key, so the script runs on a Redis Cluster too (server/infra/keyLayout.ts).
const PUBLISH_SCRIPT = `
local latest = redis.call('GET', KEYS[1])
local id = 1
if latest then
  local l = cjson.decode(latest)
  if l.state.outcome == ARGV[2] and tonumber(l.state.attempt) == tonumber(ARGV[3]) and (l.state.runId or '') == ARGV[6] then return latest end
  id = tonumber(l.id) + 1
end
local event = '{"id":' .. id .. ',"state":' .. ARGV[1] .. '}'
redis.call('SET', KEYS[1], event, 'EX', ARGV[4])
redis.call('PUBLISH', ARGV[5], event)
return event
`;
const publishScript = redisScript(PUBLISH_SCRIPT);

export interface RedisCreationEventsOptions {
  /** Owned by the caller: close() leaves it open. */
  client: RedisConnection;
  prefix: string;
  ttlSeconds?: number;
  logger?: Pick<Logger, 'error' | 'warn'>;
  /**
   * How long connecting the subscriber and a SUBSCRIBE may take (REDIS_COMMAND_TIMEOUT_MS): node-redis's
   * command timeout does not cover either, and a stream must not wait for a Redis that is away.
   */
  timeoutMs?: number;
}

export function createRedisCreationEvents(options: RedisCreationEventsOptions): CreationEvents {
  const { client, prefix } = options;
  const ttl = options.ttlSeconds ?? CREATION_EVENT_TTL_SECONDS;
  const timeoutMs = options.timeoutMs ?? 1000;
  const keys = (prospectId: string) => creationEventKeys(prefix, prospectId);

  // One subscriber connection per process, opened on first use (the worker only publishes).
  let subscriber: Promise<RedisSubscriber> | null = null;
  type Channel = { listeners: Set<(e: CreationEvent) => void>; dispatch: (message: string | Buffer) => void; ready: Promise<void> };
  const channels = new Map<string, Channel>();

  function parse(raw: string | null | undefined): CreationEvent | null {
    if (!raw) return null;
    const parsed = creationEventSchema.safeParse(JSON.parse(raw));
    if (!parsed.success) {
      options.logger?.warn('creation event with an unexpected shape ignored');
      return null;
    }
    return parsed.data;
  }

  function dispatchTo(listeners: Set<(e: CreationEvent) => void>, message: string | Buffer): void {
    const event = parse(String(message));
    if (event) for (const l of listeners) l(event);
  }

  function getSubscriber(): Promise<RedisSubscriber> {
    // The first stream that needs it connects the shared subscriber: outside that stream's request, which
    // the subscriber outlives (server/infra/deadline.ts).
    subscriber ??= outsideRequest(async () => {
      const sub = client.duplicate();
      sub.on('error', (err: Error) => options.logger?.error({ err }, 'redis subscriber error'));
      // connect() waits for Redis however long it is away: bound it, and let the next stream try again.
      await within(sub.connect(), 2 * timeoutMs, 'connecting the redis subscriber', () => void sub.destroy());
      return sub;
    }).catch((err: unknown) => {
      subscriber = null;
      throw err;
    });
    return subscriber;
  }

  return {
    async publish(state) {
      const k = keys(state.prospectId);
      const raw = await publishScript(client, {
        keys: [k.latest],
        arguments: [JSON.stringify(state), state.outcome, String(state.attempt), String(ttl), k.channel, state.runId ?? ''],
      });
      const event = parse(raw as string);
      if (!event) throw new Error('creation event could not be stored');
      return event;
    },
    async latest(prospectId) {
      return parse(await client.get(keys(prospectId).latest));
    },
    async subscribe(prospectId, listener) {
      const name = keys(prospectId).channel;
      const sub = await getSubscriber();
      let channel = channels.get(name);
      if (!channel) {
        const set = new Set<(e: CreationEvent) => void>();
        // Bound rather than a closure of its own: a channel per open stream (thousands stay open).
        const dispatch = dispatchTo.bind(undefined, set);
        // Concurrent subscribers of one prospect share the channel and wait for the same SUBSCRIBE.
        const entry: Channel = {
          listeners: set,
          dispatch,
          // A failed SUBSCRIBE must not stay cached: the next page load tries again.
          ready: within(sub.subscribe(name, dispatch), timeoutMs, 'SUBSCRIBE', () => void sub.unsubscribe(name, dispatch).catch(() => {})).catch(
            (err: unknown) => {
              if (channels.get(name) === entry) channels.delete(name);
              throw err;
            },
          ),
        };
        channel = entry;
        channels.set(name, channel);
      }
      channel.listeners.add(listener);
      await channel.ready;
      const mine = channel;
      return async () => {
        if (!mine.listeners.delete(listener) || mine.listeners.size > 0) return;
        if (channels.get(name) === mine) channels.delete(name);
        // Remove only this channel entry's handler: a newer entry for the same prospect may exist.
        if (sub.isOpen) await sub.unsubscribe(name, mine.dispatch);
      };
    },
    async close() {
      channels.clear();
      if (subscriber) {
        const sub = await subscriber.catch(() => null);
        subscriber = null;
        if (sub?.isOpen) await sub.quit();
      }
    },
  };
}

// --- in-process -------------------------------------------------------------------

export function createMemoryCreationEvents(): CreationEvents {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const latest = new Map<string, CreationEvent>();
  const seq = new Map<string, number>();
  return {
    async publish(state) {
      const prev = latest.get(state.prospectId);
      if (prev && sameState(prev.state, state)) return prev;
      const id = (seq.get(state.prospectId) ?? 0) + 1;
      seq.set(state.prospectId, id);
      const event: CreationEvent = { id, state: { ...state } };
      latest.set(state.prospectId, event);
      emitter.emit(state.prospectId, event);
      return event;
    },
    async latest(prospectId) {
      return latest.get(prospectId) ?? null;
    },
    async subscribe(prospectId, listener) {
      emitter.on(prospectId, listener);
      return async () => {
        emitter.off(prospectId, listener);
      };
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}
