import { describe, expect, it } from 'vitest';
import type { CreationStatus } from '../../shared/contracts/brokerageContract.ts';
import {
  creationOutcomes,
  decideCreationOutcome,
  isFinal,
  outcomeTraits,
  shouldPostCreationRequest,
  MAX_POLLING_TRIES,
  CREATION_POLL_INTERVAL_MS,
  type CreationOutcome,
  type CreationPoll,
  type CreationRule,
} from '../../shared/creationOutcome.ts';

type Req = CreationStatus['creation_requests'][number];
const req = (status: string, request_type = 'create_customer'): Req => ({ request_type, status });

function status(over: Partial<CreationStatus> = {}): CreationStatus {
  return { done: false, creation_process_status: 'customer_creation_started', nightly_downtime: false, creation_requests: [req('queued')], ...over };
}
function poll(over: Partial<CreationPoll> = {}): CreationPoll {
  return { httpStatus: 200, body: status(), creationPaused: false, attempt: 1, ...over };
}

const rows: Array<[string, CreationPoll, CreationOutcome, CreationRule]> = [
  // one row per rule
  ['1: HTTP 500', poll({ httpStatus: 500 }), 'unspecifiedApiResponseError', 1],
  ['1: HTTP 400', poll({ httpStatus: 400 }), 'unspecifiedApiResponseError', 1],
  ['1: no body', poll({ body: null }), 'unspecifiedApiResponseError', 1],
  ['1: a request failed', poll({ body: status({ creation_requests: [req('queued'), req('failed')] }) }), 'unspecifiedApiResponseError', 1],
  ['2: not done and nightly downtime', poll({ body: status({ nightly_downtime: true }) }), 'nightly_downtime', 2],
  ['3: paused and a queued request', poll({ creationPaused: true }), 'creationPaused', 3],
  ['4: done and a request rejected', poll({ body: status({ done: true, creation_requests: [req('rejected')] }) }), 'accountLimit', 4],
  ['5: done and update_customer', poll({ body: status({ done: true, creation_requests: [req('done', 'update_customer')] }) }), 'customerExists', 5],
  ['6: 45th attempt while queued', poll({ attempt: 45 }), 'maxPollingTries', 6],
  ['7: done, nothing queued', poll({ body: status({ done: true, creation_requests: [req('done')] }) }), 'done', 7],
  ['7: done with no requests at all', poll({ body: status({ done: true, creation_requests: [] }) }), 'done', 7],
  [
    '7: uninitiated gives the generic error',
    poll({ body: status({ creation_process_status: 'uninitiated', creation_requests: [] }) }),
    'unspecifiedApiResponseError',
    7,
  ],
  ['7: rejected, not done, nothing queued: keep queued', poll({ body: status({ creation_requests: [req('rejected')] }) }), 'queued', 7],
  ['8: a queued request', poll(), 'queued', 8],
  ['8: nothing queued, nothing settled', poll({ body: status({ creation_requests: [req('processing')] }) }), 'queued', 8],

  // precedence between adjacent rules
  [
    '1 over 2: failed request and nightly downtime',
    poll({ body: status({ nightly_downtime: true, creation_requests: [req('failed')] }) }),
    'unspecifiedApiResponseError',
    1,
  ],
  ['1 over 2: HTTP 503 and nightly downtime', poll({ httpStatus: 503, body: status({ nightly_downtime: true }) }), 'unspecifiedApiResponseError', 1],
  [
    '2 over 3: nightly downtime and paused with a queued request',
    poll({ creationPaused: true, body: status({ nightly_downtime: true }) }),
    'nightly_downtime',
    2,
  ],
  [
    '2 needs not-done: done and nightly downtime falls through to 7',
    poll({ body: status({ done: true, nightly_downtime: true, creation_requests: [req('done')] }) }),
    'done',
    7,
  ],
  [
    '3 over 4: paused, queued, and done with a rejected request',
    poll({ creationPaused: true, body: status({ done: true, creation_requests: [req('queued'), req('rejected')] }) }),
    'creationPaused',
    3,
  ],
  [
    '3 needs a queued request: paused without one falls through',
    poll({ creationPaused: true, body: status({ done: true, creation_requests: [req('done')] }) }),
    'done',
    7,
  ],
  [
    '4 over 5: rejected and update_customer',
    poll({ body: status({ done: true, creation_requests: [req('rejected', 'update_customer')] }) }),
    'accountLimit',
    4,
  ],
  [
    '5 over 6: update_customer at attempt 45',
    poll({ attempt: 45, body: status({ done: true, creation_requests: [req('done', 'update_customer')] }) }),
    'customerExists',
    5,
  ],
  ['6 over 7: done at attempt 45', poll({ attempt: 45, body: status({ done: true, creation_requests: [req('done')] }) }), 'maxPollingTries', 6],
  [
    '6 over 7: uninitiated at attempt 45',
    poll({ attempt: 45, body: status({ creation_process_status: 'uninitiated', creation_requests: [] }) }),
    'maxPollingTries',
    6,
  ],
  ['6 below 45 does not apply', poll({ attempt: 44 }), 'queued', 8],
  ['7 over 8: done but a request still queued keeps polling', poll({ body: status({ done: true, creation_requests: [req('queued')] }) }), 'queued', 8],
  [
    '7 over 8: uninitiated with a queued request keeps polling',
    poll({ body: status({ creation_process_status: 'uninitiated', creation_requests: [req('queued')] }) }),
    'queued',
    8,
  ],
];

describe('decideCreationOutcome', () => {
  it.each(rows)('%s', (_name, input, outcome, rule) => {
    expect(decideCreationOutcome(input)).toEqual({ outcome, rule });
  });

  it('honours a configured maximum', () => {
    expect(decideCreationOutcome(poll({ attempt: 3 }), 3)).toEqual({ outcome: 'maxPollingTries', rule: 6 });
  });
});

describe('constants and traits', () => {
  it('uses the spec values', () => {
    expect(CREATION_POLL_INTERVAL_MS).toBe(2000);
    expect(MAX_POLLING_TRIES).toBe(45);
  });

  it.each([
    [status({ creation_process_status: 'uninitiated', creation_requests: [] }), true],
    [status({ done: true }), false],
    [status({ creation_process_status: 'customer_creation_started' }), false],
    [status({ creation_process_status: 'something_else', creation_requests: [] }), true],
  ])('shouldPostCreationRequest(%j) = %s', (initial, expected) => {
    expect(shouldPostCreationRequest(initial)).toBe(expected);
  });

  it('only queued keeps polling', () => {
    for (const o of creationOutcomes) expect(isFinal(o)).toBe(o !== 'queued');
  });

  it('maps screens and log-in from the spec', () => {
    const screens = Object.fromEntries(creationOutcomes.map((o) => [o, outcomeTraits[o].screen]));
    expect(screens).toEqual({
      queued: 'polling',
      done: 'polling',
      nightly_downtime: 'polling',
      customerExists: 'alreadyCustomer',
      accountLimit: 'error',
      creationPaused: 'error',
      unspecifiedApiResponseError: 'error',
      maxPollingTries: 'error',
    });
    const canLogIn = creationOutcomes.filter((o) => outcomeTraits[o].canLogIn).sort();
    // identification-routing-creation §4 "Outcome codes": done, customerExists and accountLimit "can log in", no other.
    expect(canLogIn).toEqual(['accountLimit', 'customerExists', 'done']);
    expect(outcomeTraits.accountLimit.severity).toBe('warning');
    expect(outcomeTraits.unspecifiedApiResponseError.severity).toBe('error');
    expect(outcomeTraits.queued.severity).toBe('pending');
  });
});
