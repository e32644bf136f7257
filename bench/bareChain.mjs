// The baseline of the worker's lateness in `npm run bench:peak`: a bare BullMQ chain of delayed jobs
// per run, each job due on its run's grid (the first job's start + n × interval) as the product's polls are, doing
// nothing else; removed as they end, as the product's creation jobs are. It runs `runs` chains of `polls` jobs and
// writes each run's job start times and its CPU time from the first job on (ms) to `out` (JSON), then exits.
//   node bench/bareChain.mjs REDIS_URL PREFIX RUNS POLLS INTERVAL_MS CONCURRENCY OUT
import { writeFileSync } from 'node:fs';
import { Queue, Worker } from 'bullmq';

const [redisUrl, prefix, runsArg, pollsArg, intervalArg, concurrencyArg, out] = process.argv.slice(2);
const [runs, polls, intervalMs, concurrency] = [runsArg, pollsArg, intervalArg, concurrencyArg].map(Number);
const u = new URL(redisUrl);
const connection = { host: u.hostname, port: Number(u.port || 6379), maxRetriesPerRequest: null };
const queue = new Queue('bare-chain', { connection, prefix });
const times = new Map();
let finished = 0;
let cpuAtFirstJob;
const cpuMs = (u = process.cpuUsage()) => (u.user + u.system) / 1000;

// Also on SIGTERM (the bench's time limit): the runs as far as they got.
function end() {
  writeFileSync(out, JSON.stringify({ runs: [...times.values()], cpuMs: cpuMs() - (cpuAtFirstJob ?? cpuMs()) }));
  setImmediate(() => void Promise.all([worker.close(true), queue.close()]).then(() => process.exit(0)));
}
process.once('SIGTERM', end);

const worker = new Worker(
  'bare-chain',
  async (job) => {
    const { run, n, from } = job.data;
    const at = Date.now();
    cpuAtFirstJob ??= cpuMs();
    const list = times.get(run) ?? [];
    list[n] = at;
    times.set(run, list);
    const grid = n === 0 ? at : from;
    if (n < polls) {
      const due = grid + (n + 1) * intervalMs;
      await queue.add(
        'poll',
        { run, n: n + 1, from: grid },
        { jobId: `r${run}-${n + 1}`, delay: Math.max(0, due - Date.now()), removeOnComplete: true, removeOnFail: true },
      );
    } else if (++finished === runs) end();
  },
  { connection, prefix, concurrency },
);
await worker.waitUntilReady();
const batch = 250;
for (let i = 0; i < runs; i += batch) {
  await queue.addBulk(
    Array.from({ length: Math.min(batch, runs - i) }, (_, k) => ({
      name: 'poll',
      data: { run: i + k, n: 0 },
      opts: { jobId: `r${i + k}-0`, removeOnComplete: true, removeOnFail: true },
    })),
  );
}
process.stdout.write(`bare chain: ${runs} runs queued\n`);
