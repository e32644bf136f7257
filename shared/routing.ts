// Routing after identification (spec: identification-routing-creation.md §4 "Routing after identification").
import type { RoutingStatusResponse } from './contracts/brokerageContract.ts';

export const identificationErrors = ['TRY_AGAIN_ERROR', 'MANUAL_SUPPORT_ERROR', 'MINOR_ERROR', 'LOGIN_ERROR', 'BLOCK_CUSTOMER_ERROR'] as const;
export type IdentificationError = (typeof identificationErrors)[number];

export type RoutingDecision =
  | { kind: 'continue' }
  | { kind: 'legacyFlow' }
  | { kind: 'identificationError'; error: IdentificationError }
  | { kind: 'nightlyDowntime' }
  | { kind: 'caseStatus' };

export const SHOULD_NOT_UPDATE_STATUS = 'SHOULD_NOT_UPDATE_STATUS';

export function routingDecision(response: RoutingStatusResponse): RoutingDecision {
  switch (response.customerRoutingStatus) {
    case 'LOGIN':
      return { kind: 'identificationError', error: 'LOGIN_ERROR' };
    case 'MINOR':
      return { kind: 'identificationError', error: 'MINOR_ERROR' };
    case 'MANUAL_SUPPORT':
      return { kind: 'identificationError', error: 'MANUAL_SUPPORT_ERROR' };
    case 'ONBOARDING_NIGHTLY_DOWNTIME':
      return { kind: 'nightlyDowntime' };
    case 'ONBOARDING_OPEN_CASE':
      return { kind: 'caseStatus' };
    case 'ONBOARDING_INTENT':
    case 'ONBOARDING':
      return response.routingInformation?.includes(SHOULD_NOT_UPDATE_STATUS) ? { kind: 'legacyFlow' } : { kind: 'continue' };
  }
}

/** Identification failures by HTTP status (identification-routing-creation §8): 500 and above → try again, other failures → manual support. */
export function identificationErrorForStatus(status: number): IdentificationError {
  return status >= 500 || status === 0 ? 'TRY_AGAIN_ERROR' : 'MANUAL_SUPPORT_ERROR';
}
