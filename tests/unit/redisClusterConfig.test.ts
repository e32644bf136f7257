// REDIS_URL naming a Redis Cluster: REDIS_CLUSTER=true makes REDIS_URL one or more seed nodes, with
// TLS (rediss://) as for one node; a setting that cannot work is refused at start, naming REDIS_URL, and the production
// checks stay as they are.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';

const shared = {
  NODE_ENV: 'production',
  SESSION_SECRET: 'x'.repeat(40),
  JOB_SECRET_KEY: 'ab'.repeat(32),
  PUBLIC_URL: 'https://onboarding.example.se',
};

describe('REDIS_URL and REDIS_CLUSTER', () => {
  it('reads one node by default, and seed nodes of a cluster with REDIS_CLUSTER=true, TLS and credentials included', () => {
    expect(loadConfig({ ...shared, REDIS_URL: 'rediss://u:p@redis.example:6380/2' }).redis).toEqual({
      cluster: false,
      url: 'rediss://u:p@redis.example:6380/2',
    });
    const c = loadConfig({ ...shared, REDIS_CLUSTER: 'true', REDIS_URL: 'rediss://u:p@redis-1.example:6379, rediss://u:p@redis-2.example:6379' });
    expect(c.redis).toEqual({ cluster: true, seeds: ['rediss://u:p@redis-1.example:6379', 'rediss://u:p@redis-2.example:6379'] });
    expect(loadConfig({}).redis).toBeUndefined();
  });

  it.each([
    ['several nodes without REDIS_CLUSTER', { REDIS_URL: 'redis://a:6379,redis://b:6379' }, /set REDIS_CLUSTER=true/],
    ['a URL that is not Redis', { REDIS_URL: 'http://redis.example:6379' }, /REDIS_URL is a redis:\/\/ or rediss:\/\/ URL/],
    ['no URL at all', { REDIS_URL: 'redis-1:6379' }, /REDIS_URL is a redis:\/\/ or rediss:\/\/ URL/],
    ['a cluster without REDIS_URL', { REDIS_CLUSTER: 'true' }, /REDIS_CLUSTER=true needs REDIS_URL/],
    ['a database on a cluster', { REDIS_CLUSTER: 'true', REDIS_URL: 'redis://a:6379/3' }, /names no database/],
    ['seeds mixing TLS and plain', { REDIS_CLUSTER: 'true', REDIS_URL: 'rediss://a:6379,redis://b:6379' }, /all redis:\/\/ or all rediss:\/\//],
    ['seeds with other credentials', { REDIS_CLUSTER: 'true', REDIS_URL: 'redis://u:p@a:6379,redis://u:q@b:6379' }, /same user and password/],
  ])('refuses %s, naming REDIS_URL', (_, env, message) => {
    expect(() => loadConfig({ ...shared, ...env })).toThrow(message);
    expect(() => loadConfig({ ...shared, ...env })).toThrow(/REDIS_URL: /);
  });

  it('still refuses a shared deployment on a cluster without its own secrets, as on one node', () => {
    expect(() => loadConfig({ REDIS_CLUSTER: 'true', REDIS_URL: 'redis://a:6379' })).toThrow(/SESSION_SECRET is required whenever REDIS_URL is set/);
    expect(() => loadConfig({ NODE_ENV: 'production', REDIS_CLUSTER: 'true' })).toThrow(/REDIS_URL is required in production/);
  });
});
