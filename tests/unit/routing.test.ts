import { describe, expect, it } from 'vitest';
import { identificationErrorForStatus, routingDecision, type RoutingDecision } from '../../shared/routing.ts';
import { routingStatuses, type RoutingStatusResponse } from '../../shared/contracts/brokerageContract.ts';

const table: [RoutingStatusResponse['customerRoutingStatus'], string[] | null, RoutingDecision][] = [
  ['ONBOARDING_INTENT', null, { kind: 'continue' }],
  ['ONBOARDING', null, { kind: 'continue' }],
  ['ONBOARDING', [], { kind: 'continue' }],
  ['ONBOARDING', ['SOMETHING_ELSE'], { kind: 'continue' }],
  ['ONBOARDING', ['SHOULD_NOT_UPDATE_STATUS'], { kind: 'legacyFlow' }],
  ['ONBOARDING_INTENT', ['SHOULD_NOT_UPDATE_STATUS'], { kind: 'legacyFlow' }],
  ['LOGIN', null, { kind: 'identificationError', error: 'LOGIN_ERROR' }],
  ['MINOR', null, { kind: 'identificationError', error: 'MINOR_ERROR' }],
  ['MANUAL_SUPPORT', null, { kind: 'identificationError', error: 'MANUAL_SUPPORT_ERROR' }],
  ['ONBOARDING_NIGHTLY_DOWNTIME', null, { kind: 'nightlyDowntime' }],
  ['ONBOARDING_OPEN_CASE', null, { kind: 'caseStatus' }],
  // The status decides first: a login customer is never sent to the legacy flow.
  ['LOGIN', ['SHOULD_NOT_UPDATE_STATUS'], { kind: 'identificationError', error: 'LOGIN_ERROR' }],
];

describe('routingDecision (identification-routing-creation §4 "Routing after identification")', () => {
  it.each(table)('%s with routingInformation %j', (customerRoutingStatus, routingInformation, expected) => {
    expect(routingDecision({ customerRoutingStatus, customerId: null, routingInformation })).toEqual(expected);
  });

  it('has a row for every routing status', () => {
    for (const status of routingStatuses)
      expect(
        table.some(([s]) => s === status),
        status,
      ).toBe(true);
  });

  it.each([
    [500, 'TRY_AGAIN_ERROR'],
    [503, 'TRY_AGAIN_ERROR'],
    [0, 'TRY_AGAIN_ERROR'],
    [400, 'MANUAL_SUPPORT_ERROR'],
    [404, 'MANUAL_SUPPORT_ERROR'],
  ] as const)('identification failure with HTTP %s → %s', (status, error) => {
    expect(identificationErrorForStatus(status)).toBe(error);
  });
});
