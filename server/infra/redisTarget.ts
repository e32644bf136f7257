// Which Redis the processes use, from REDIS_URL and REDIS_CLUSTER (read by server/config.ts, connected by
// server/infra/redis.ts): one node, or a Redis Cluster reached through one or more seed nodes (the client
// asks a seed for the cluster's layout and then talks to every primary itself).

/** One node (`url`), or a cluster reached through `seeds` (each a redis:// or rediss:// URL of a node). */
export type RedisTarget = { cluster: false; url: string } | { cluster: true; seeds: string[] };

/** The seed URLs of REDIS_URL: one URL, or with REDIS_CLUSTER several separated by commas. */
function entriesOf(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Why REDIS_URL (with REDIS_CLUSTER) cannot be used, one message per problem; empty when it can. A cluster has
 * database 0 only, and its seeds must agree on TLS and credentials: the client reaches the nodes it discovers with
 * the first seed's (a seed that differs would be a typo that only shows when that node is asked).
 */
export function redisTargetIssues(value: string | undefined, cluster: boolean): string[] {
  if (value === undefined) return cluster ? ['REDIS_CLUSTER=true needs REDIS_URL, a seed node of the cluster such as rediss://user:secret@redis-1:6379'] : [];
  const entries = entriesOf(value);
  if (entries.length === 0) return ['REDIS_URL is empty'];
  const urls = entries.map((e) => (URL.canParse(e) ? new URL(e) : null));
  if (urls.some((u) => u === null || (u.protocol !== 'redis:' && u.protocol !== 'rediss:') || !u.hostname)) {
    return ['REDIS_URL is a redis:// or rediss:// URL (with REDIS_CLUSTER=true, one or more seed nodes separated by commas)'];
  }
  const parsed = urls as URL[];
  if (!cluster) {
    return parsed.length > 1 ? ['REDIS_URL names several nodes: set REDIS_CLUSTER=true for a Redis Cluster (a single node takes one URL)'] : [];
  }
  const issues: string[] = [];
  const first = parsed[0]!;
  if (parsed.some((u) => u.pathname.length > 1 && u.pathname !== '/0'))
    issues.push('REDIS_URL of a Redis Cluster names no database (a cluster has database 0 only)');
  if (parsed.some((u) => u.protocol !== first.protocol)) issues.push('REDIS_URL seed nodes are all redis:// or all rediss:// (TLS)');
  if (parsed.some((u) => u.username !== first.username || u.password !== first.password)) issues.push('REDIS_URL seed nodes carry the same user and password');
  return issues;
}

/** The target of a REDIS_URL that passed redisTargetIssues. */
export function redisTarget(value: string, cluster: boolean): RedisTarget {
  return cluster ? { cluster: true, seeds: entriesOf(value) } : { cluster: false, url: value.trim() };
}

/** What a client needs of a redis:// or rediss:// URL. */
export interface RedisAddress {
  host: string;
  port: number;
  username: string | undefined;
  password: string | undefined;
  tls: boolean;
  db: number | undefined;
}

export function redisAddress(url: string): RedisAddress {
  const u = new URL(url);
  const db = u.pathname.length > 1 ? Number(u.pathname.slice(1)) : undefined;
  return {
    // An IPv6 literal comes bracketed in a URL, not in a socket address.
    host: u.hostname.replace(/^\[|\]$/g, ''),
    port: u.port ? Number(u.port) : 6379,
    username: u.username ? decodeURIComponent(u.username) : undefined,
    password: u.password ? decodeURIComponent(u.password) : undefined,
    tls: u.protocol === 'rediss:',
    db: Number.isInteger(db) ? db : undefined,
  };
}
