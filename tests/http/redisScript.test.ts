// redisScript (server/infra/redis.ts) on a real Redis: a script is sent by its SHA1, and its text only when Redis has
// not seen it (NOSCRIPT). Each test's script carries a random comment, so no other test file has loaded it before.
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { redisScript, type RedisConnection, type ScriptCall } from '../../server/infra/redis.ts';
import { useRedisClient } from '../support/redisClient.ts';

const redisClient = useRedisClient();

/** The connection, with the script commands it was asked for, in order. */
function recorded() {
  const sent: string[] = [];
  const redis = redisClient();
  const client = {
    eval: (script: string, call: ScriptCall) => (sent.push('EVAL'), redis.eval(script, call)),
    evalSha: (sha1: string, call: ScriptCall) => (sent.push('EVALSHA'), redis.evalSha(sha1, call)),
  } as unknown as RedisConnection;
  return { client, sent };
}

describe('redisScript', () => {
  it('sends the text once, when Redis has not seen it, and then the SHA1 alone', async () => {
    const key = `test-script-${randomUUID()}`;
    const incr = redisScript(`-- ${randomUUID()}\nreturn redis.call('INCRBY', KEYS[1], ARGV[1])`);
    const { client, sent } = recorded();
    expect(await incr(client, { keys: [key], arguments: ['2'] })).toBe(2);
    expect(await incr(client, { keys: [key], arguments: ['3'] })).toBe(5);
    expect(sent).toEqual(['EVALSHA', 'EVAL', 'EVALSHA']);
    await redisClient().del(key);
  });

  it("passes a script's own error on, without sending its text again", async () => {
    const failing = redisScript(`-- ${randomUUID()}\nreturn redis.error_reply('refused by the script')`);
    const { client, sent } = recorded();
    await expect(failing(client, { keys: [], arguments: [] })).rejects.toThrow('refused by the script');
    await expect(failing(client, { keys: [], arguments: [] })).rejects.toThrow('refused by the script');
    expect(sent).toEqual(['EVALSHA', 'EVAL', 'EVALSHA']);
  });
});
