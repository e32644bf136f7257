// Throughput side by side: each target under autocannon for a few seconds per round, the rounds
// alternating their order, the median of the rounds per target; pages as ratios to the Express and node:http hellos
// measured in the same rounds. People's pages rotate over distinct cookies: each connection keeps people of its own,
// so no two requests in flight share a session (and its lock).
import autocannon from 'autocannon';
import { median, roundOrder } from './benchMath.ts';

export interface Visitor {
  cookie: string;
  path: string;
}

export interface Target {
  name: string;
  url: string;
  path: string;
  /** People to rotate over (each their Cookie header and their own page's path); none for an anonymous page. */
  visitors?: Visitor[];
  /** Request headers besides the cookie (Accept-Encoding for a page's compressed figure). */
  headers?: Record<string, string>;
}

export interface TargetRate {
  name: string;
  /** Requests per second, one per round. */
  rounds: number[];
  median: number;
  /** Answers other than 2xx, errors and timeouts over all rounds: the figure is not to be trusted if any. */
  failures: number;
  latencyP50: number[];
}

export interface ThroughputOptions {
  rounds: number;
  seconds: number;
  connections: number;
  /** Before the rounds: each target once for this long (JIT, caches, connection pools). */
  warmupSeconds: number;
  log: (line: string) => void;
}

async function hit(target: Target, seconds: number, connections: number) {
  const visitors = target.visitors ?? [];
  let nextConnection = 0;
  return autocannon({
    url: target.url,
    connections,
    duration: seconds,
    timeout: 10,
    headers: target.headers,
    requests: [
      {
        method: 'GET',
        path: target.path,
        setupRequest(req, context) {
          if (visitors.length === 0) return req;
          // Connection k takes people k, k + connections, …, and goes round them.
          if (context.own === undefined) {
            const k = nextConnection++ % connections;
            const own = visitors.filter((_, i) => i % connections === k);
            // Fewer people than connections: some share one (then a lock may make them wait on each other).
            context.own = own.length > 0 ? own : [visitors[k % visitors.length]!];
            context.turn = 0;
          }
          const own = context.own as Visitor[];
          const turn = (context.turn as number) + 1;
          context.turn = turn;
          const visitor = own[turn % own.length]!;
          return { ...req, path: visitor.path, headers: { ...req.headers, cookie: visitor.cookie } };
        },
      },
    ],
  });
}

export async function measureThroughput(targets: readonly Target[], options: ThroughputOptions): Promise<TargetRate[]> {
  const rates = new Map(targets.map((t) => [t.name, { name: t.name, rounds: [] as number[], median: NaN, failures: 0, latencyP50: [] as number[] }]));
  for (const target of targets) await hit(target, options.warmupSeconds, options.connections);
  for (let round = 0; round < options.rounds; round++) {
    for (const target of roundOrder(targets, round)) {
      const result = await hit(target, options.seconds, options.connections);
      const rate = rates.get(target.name)!;
      rate.rounds.push(result.requests.average);
      rate.latencyP50.push(result.latency.p50);
      rate.failures += result.non2xx + result.errors + result.timeouts;
      options.log(
        `  round ${round + 1} ${target.name}: ${Math.round(result.requests.average)} req/s${result.non2xx + result.errors ? ` (${result.non2xx} non-2xx, ${result.errors} errors)` : ''}`,
      );
    }
  }
  for (const rate of rates.values()) rate.median = median(rate.rounds);
  return [...rates.values()];
}
