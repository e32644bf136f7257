// The pure parts of `npm run soak` (bench/soak.ts): what each journey saw and what the sandbox and Redis read out at the
// end, reduced to the figures the soak prints and the failures that make it exit non-zero (each signed prospect
// exactly one final outcome, the one its persona plays; the brokerage saw one creation request for it).
import type { CreationOutcome } from '../shared/creationOutcome.ts';

/** One person's journey, as the soak's scripted browser saw it. */
export interface JourneyRecord {
  scenario: string;
  /** Known once routing answered the person's page. */
  prospectId?: string;
  /** The agreements signed in the sandbox: from here on creation must reach its final outcome. */
  signed: boolean;
  /** The final outcome the person's creation page showed, if it showed one within the bound. */
  seen?: CreationOutcome;
  /** Why the journey stopped short, when it did. */
  stoppedBecause?: string;
  /** Error pages and refused connections the person met and got past by reloading or pressing again. */
  retries: number;
}

/** What was read out at the end for one signed prospect. */
export interface ProspectReadOut {
  /** The outcome of the latest state the worker kept in Redis (null: none kept). */
  latest: CreationOutcome | null;
  /** Every final state published (Redis pub/sub) while the soak listened: run id and outcome. */
  finalEvents: Array<{ runId: string; outcome: CreationOutcome }>;
  /** The statuses the sandbox brokerage answered to POST /api/2/customers for the prospect, in order. */
  createCustomer: number[];
  /** Login sessions started and lead numbers handed out for the prospect (sandbox/afterCreation.ts). */
  loginSessions: number;
  leadNumbers: number;
}

export interface SoakFigures {
  started: number;
  signed: number;
  /** A final outcome seen on the person's page. */
  completed: number;
  /** No final outcome on the page within the bound: before signing, and after it. */
  stranded: number;
  strandedBeforeSigning: number;
  retries: number;
  outcomes: Record<string, number>;
  /** One line per problem, naming the prospect (not personal data: a random id of the sandbox). */
  lost: string[];
  duplicated: string[];
  wrong: string[];
}

const ok = (status: number) => status >= 200 && status < 300;

/** The figures of a soak: `expected` gives the outcome each scenario plays in the sandbox. */
export function soakFigures(
  journeys: readonly JourneyRecord[],
  readOuts: ReadonlyMap<string, ProspectReadOut>,
  expected: Readonly<Record<string, CreationOutcome>>,
): SoakFigures {
  const figures: SoakFigures = {
    started: journeys.length,
    signed: 0,
    completed: 0,
    stranded: 0,
    strandedBeforeSigning: 0,
    retries: 0,
    outcomes: {},
    lost: [],
    duplicated: [],
    wrong: [],
  };
  for (const j of journeys) {
    figures.retries += j.retries;
    if (j.seen) {
      figures.completed += 1;
      figures.outcomes[j.seen] = (figures.outcomes[j.seen] ?? 0) + 1;
    } else {
      figures.stranded += 1;
      if (!j.signed) figures.strandedBeforeSigning += 1;
    }
    if (!j.signed || !j.prospectId) continue;
    figures.signed += 1;
    const id = j.prospectId;
    const want = expected[j.scenario];
    const r = readOuts.get(id);
    if (!r) {
      figures.lost.push(`${id}: nothing read out`);
      continue;
    }
    const accepted = r.createCustomer.filter(ok).length;
    if (accepted === 0) figures.lost.push(`${id}: the brokerage never accepted its creation request (${r.createCustomer.join(', ') || 'none'})`);
    if (accepted > 1) figures.duplicated.push(`${id}: ${accepted} creation requests accepted by the brokerage`);
    if (r.latest === null || r.latest === 'queued') figures.lost.push(`${id}: no final outcome kept (latest: ${r.latest ?? 'none'})`);
    else if (want && r.latest !== want) figures.wrong.push(`${id}: ${j.scenario} ended ${r.latest}, expected ${want}`);
    if (j.seen && r.latest && j.seen !== r.latest) figures.wrong.push(`${id}: the page showed ${j.seen}, Redis keeps ${r.latest}`);
    // One run per journey (the soak never presses Try again): two final states of it are a duplicate outcome.
    if (r.finalEvents.length > 1)
      figures.duplicated.push(`${id}: ${r.finalEvents.length} final outcomes published (${r.finalEvents.map((e) => `${e.runId} ${e.outcome}`).join('; ')})`);
    if (r.loginSessions > 1) figures.duplicated.push(`${id}: ${r.loginSessions} login sessions`);
    if (r.leadNumbers > 1) figures.duplicated.push(`${id}: ${r.leadNumbers} lead numbers`);
  }
  return figures;
}

/** The soak failed: anything lost, duplicated, wrong, or a journey stranded. */
export function soakFailed(f: SoakFigures): boolean {
  return f.stranded > 0 || f.lost.length > 0 || f.duplicated.length > 0 || f.wrong.length > 0;
}

/** A whole number of milliseconds in [min, max], from `random` in [0, 1). */
export function between(min: number, max: number, random: number): number {
  return Math.floor(min + (max - min) * random);
}

/** What a soak's section in docs/benchmarks.md says besides its figures. */
export interface SoakRun {
  /** ISO time the soak ended. */
  at: string;
  commit: string;
  machine: string;
  minutes: number;
  minutesRun: number;
  /** One line per kill ("36 s: worker1 SIGKILLed, down 2102 ms"). */
  chaos: string[];
  /** Why people reloaded or pressed again, with counts. */
  retryCauses: Array<[string, number]>;
  /** The soak's verdict: soakFailed, or a killed process that did not come back. */
  failed: boolean;
}

/** The "## Chaos soak" section of docs/benchmarks.md (bench/reportSections.ts keeps it when the other benches write). */
export function soakSection(f: SoakFigures, run: SoakRun): string {
  const outcomes = Object.entries(f.outcomes)
    .map(([o, n]) => `${o} ${n}`)
    .join(', ');
  const rows: Array<[string, string]> = [
    ['journeys started', String(f.started)],
    ['signed', String(f.signed)],
    ['completed', `${f.completed} (${outcomes || 'none'})`],
    ['stranded', `${f.stranded} (before signing ${f.strandedBeforeSigning})`],
    ['outcomes lost', String(f.lost.length)],
    ['duplicated', String(f.duplicated.length)],
    ['wrong outcome', String(f.wrong.length)],
    ['reloads or presses again after an error', `${f.retries} (${run.retryCauses.map(([c, n]) => `${c} ${n}`).join(', ') || 'none'})`],
  ];
  return [
    '## Chaos soak',
    'Written by `npm run soak` (bench/soak.ts): its own Redis (AOF), the sandbox, two web processes and two workers from the ' +
      'compiled build; five lanes of SE BankID personas walk from identification to their creation outcome, each request ' +
      'to either web; a web or worker is SIGKILLed and restarted every 20–60 s, and Redis once.',
    `- Run: ${run.at}, ${run.minutesRun.toFixed(1)} min (${run.minutes} min of journeys), commit ${run.commit}\n- Machine: ${run.machine}\n- Verdict: ${run.failed ? 'FAILED' : 'passed'}`,
    ['| figure | this run |', '| --- | --- |', ...rows.map(([k, v]) => `| ${k} | ${v} |`)].join('\n'),
    `Kills (${run.chaos.length}):\n\n${run.chaos.map((line) => `- ${line}`).join('\n')}`,
  ].join('\n\n');
}
