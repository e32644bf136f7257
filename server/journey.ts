// What the server remembers about one prospect's journey, kept in the session (Redis in production),
// never in the browser. Tokens and the BankID QR secret live only here.
import type { CountryCode, RoutingStatus, StepId, AccountTypeWithCountry } from '../shared/contracts/brokerage.ts';
import type { Locale } from '../shared/i18n.ts';
import type { IdentificationError } from '../shared/routing.ts';

export type CustomerType = 'none' | 'private' | 'minor' | 'corporate';

export interface BankidOrder {
  orderRef: string;
  autoStartToken: string;
  qrStartToken: string;
  qrStartSecret: string;
  /** Epoch ms when the order was created: QR seconds count from here. */
  startedAt: number;
  mode: 'QR' | 'SAME_DEVICE';
  /** How many times this attempt re-created the order after a polling failure. */
  recreations: number;
  status: 'pending' | 'complete';
  hintCode?: string;
}

/** A failed identification attempt: the hint message key and whether Try again is offered. */
export interface BankidFailure {
  messageKey: string;
  retry: boolean;
}

export interface CustomerInformationProgress {
  prospectId: string;
  steps: StepId[];
  current: number;
  accounts: AccountTypeWithCountry[];
}

export interface Journey {
  country: CountryCode;
  locale?: Locale;
  customerType: CustomerType;
  webview: boolean;
  queryParams: Record<string, string>;
  bankid?: BankidOrder;
  bankidFailure?: BankidFailure;
  /** National id of the identified person; personal data, never logged. */
  natregno?: string;
  jwt?: string;
  routingStatus?: RoutingStatus;
  identificationError?: IdentificationError;
  prospectId?: string;
  customerInformation?: CustomerInformationProgress;
  creationRun?: number;
}

declare module 'express-session' {
  interface SessionData {
    journey: Journey;
  }
}

export function newJourney(country: CountryCode): Journey {
  return { country, customerType: 'none', webview: false, queryParams: {} };
}
