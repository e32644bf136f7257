// What the server remembers about one prospect's journey, kept in the session (Redis in production),
// never in the browser. Tokens and the BankID QR secret live only here.
import type { CountryCode, RoutingStatus, StepId, AccountTypeWithCountry } from '../shared/contracts/brokerage.ts';
import type { Locale } from '../shared/i18n.ts';
import type { IdentificationError } from '../shared/routing.ts';
import type { OidcMarker } from './upstream/oidcBroker.ts';
import type { Campaign } from '../shared/shell.ts';

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
  /** Index of the current step in steps, and the sub-step within it (citizenship, tax, residency). */
  current: number;
  subStep?: number;
  accounts: AccountTypeWithCountry[];
  /** Every answer given so far, per step, so a reload, Back or a second tab never loses one. */
  answers?: StepAnswers;
}

/** Each step module keeps its own answers here under its own field (customer-information.md §3). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- step modules add their fields
export interface StepAnswers {}

export interface Journey {
  country: CountryCode;
  locale?: Locale;
  customerType: CustomerType;
  webview: boolean;
  queryParams: Record<string, string>;
  /** The Swedish BankID view chosen: QR (other device) or this device; unset shows the choice on mobile. */
  bankidMode?: 'QR' | 'SAME_DEVICE';
  bankid?: BankidOrder;
  bankidFailure?: BankidFailure;
  /** The local marker of a DK/NO/FI identification in progress: state, nonce and PKCE verifier. */
  oidc?: OidcMarker;
  /** National id of the identified person; personal data, never logged. */
  natregno?: string;
  jwt?: string;
  routingStatus?: RoutingStatus;
  identificationError?: IdentificationError;
  prospectId?: string;
  /** Routing said SHOULD_NOT_UPDATE_STATUS: the prospect is a legacy (v2) one and the legacy flow is used. */
  legacyFlow?: boolean;
  customerInformation?: CustomerInformationProgress;
  creationRun?: number;
  /** Campaign of the entry query (spec §3 campaign types); picks the signup image. */
  campaign?: Campaign;
  /** Set once the current brokerage sessions were logged out on entry (spec §4), so it runs once per journey. */
  sessionsLoggedOut?: boolean;
}

declare module 'express-session' {
  interface SessionData {
    journey: Journey;
  }
}

export function newJourney(country: CountryCode): Journey {
  return { country, customerType: 'none', webview: false, queryParams: {} };
}
