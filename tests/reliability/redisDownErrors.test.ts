// Pages hanging while Redis is down, at the level of its rule: which failures mean
// "Redis cannot be reached right now" (server/infra/redis.ts isRedisUnavailable), the ones the error
// middleware answers with the 503 temporarily-unavailable page instead of the generic 500 error. The
// processes and a Redis of the test's own are in redisDown.test.ts. The errors are the server's own client's (@redis/client).
import { describe, expect, it } from 'vitest';
import { ClientClosedError, ClientOfflineError, ErrorReply, SocketClosedUnexpectedlyError, TimeoutError } from '@redis/client';
import { isRedisUnavailable, RedisUnavailableError } from '../../server/infra/redis.ts';

const maxRetries = Object.assign(new Error('Reached the max retries per request limit (which is 1). Refer to "maxRetriesPerRequest" option for details.'), {
  name: 'MaxRetriesPerRequestError',
});

describe('pages hang when Redis is down: which failures answer 503', () => {
  const table: Array<[string, unknown, boolean]> = [
    ['our own RedisUnavailableError', new RedisUnavailableError(), true],
    ['node-redis offline (connection down, no offline queue)', new ClientOfflineError(), true],
    ['node-redis command timeout', new TimeoutError(), true],
    ['node-redis socket closed', new SocketClosedUnexpectedlyError(), true],
    ['node-redis client closed (shutting down)', new ClientClosedError(), true],
    ['node-redis full command queue', new Error('The queue is full'), true],
    ['ioredis without offline queue', new Error("Stream isn't writeable and enableOfflineQueue options is false"), true],
    ['ioredis command timeout', new Error('Command timed out'), true],
    ['ioredis max retries per request', maxRetries, true],
    ['wrapped as a cause', new Error('session store failed', { cause: new ClientOfflineError() }), true],
    ['a Redis error reply (a bad command: a bug, not an outage)', new ErrorReply('WRONGTYPE Operation against a key holding the wrong kind of value'), false],
    ['any other error', new Error('boom'), false],
    ['not an error', 'Command timed out', false],
    ['nothing', undefined, false],
  ];
  it.each(table)('%s → %s', (_label, err, expected) => {
    expect(isRedisUnavailable(err)).toBe(expected);
  });
});
