// What the server remembers about one prospect's journey, kept in the session (Redis in production),
// never in the browser. Tokens and the BankID QR secret live only here.
import type { CountryCode, RoutingStatus, StepId, AccountTypeWithCountry } from '../shared/contracts/brokerage.ts';
import type { Locale } from '../shared/i18n.ts';
import type { IdentificationError } from '../shared/routing.ts';
import type { OidcMarker } from './upstream/oidcBroker.ts';
import type { Campaign } from '../shared/shell.ts';
import type { PhonePrefix } from '../shared/contactInformation.ts';
import type { CitizenshipAnswers, UploadedFileRef } from '../shared/citizenship.ts';
import type { ResidencyAnswers } from '../shared/residency.ts';

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
  steps: StepId[];
  /** Index of the current step in steps. */
  current: number;
  /** The step's current screen (unset: its first) and the screens visited before it, for Back (the page machine). */
  screen?: string;
  visited?: string[];
  accounts: AccountTypeWithCountry[];
  /** Every answer given so far, per step, so a reload, Back or a second tab never loses one. */
  answers?: StepAnswers;
}

/** Each step module keeps its own answers here under its own field (customer-information.md §3). */
export interface StepAnswers {
  /** Citizenship (§2.3, §4.3): the choice, chosen countries, upstream taskIds and uploaded proof per country. */
  citizenship?: CitizenshipAnswers;
  /** Contact information (§2.3, §5): the fields as last typed, and the e-mail a suggestion was shown for. */
  contactInformation?: { prefix: PhonePrefix; phone: string; email: string; suggestionShownFor?: string };
  /** Tax information (§2.3, §4.5): liability, chosen countries, numbers per country, an open dialog. */
  taxInformation?: {
    liability?: 'inOffice' | 'usa' | 'other';
    countries?: string[];
    /** Country search text of the no-JS country list. */
    search?: string;
    numbers?: Record<string, { tin: string; startDate: string }>;
    /** With the tax-residence flag, when home and address country differ: the tax residence country chosen. */
    taxResidenceCountryCode?: string;
    /** With the tax-residence flag (the residenceProof screen): the TAX_RESIDENCE case's country and taskId, and the uploaded proof. */
    residenceProof?: { countryCode: string; taskId: string; files: UploadedFileRef[] };
    /** The field names the last refused tax submit named (customer-information §4.5), listed by the failure dialog. */
    invalidFields?: string[];
  };
  /** Residency (§2.3, §3 residency data): the address abroad, the three answers, the case's task id, the documents. */
  residency?: ResidencyAnswers;
  /** Account picker (§4.2): the ticks as last posted, confirmed exclusive accounts, the DSK campaign answer. */
  accountPicker?: {
    accounts: AccountTypeWithCountry[];
    confirmed: AccountTypeWithCountry[];
    /** Danish campaign: 'yes' = an equity savings account at another bank (DSK locked off). */
    dskExisting?: 'yes' | 'no';
    /** The ESA confirmation was declined: the picker shows the warning. */
    esaDeclined?: boolean;
  };
  /** Account alias (§5): the names as typed, per account. */
  accountAlias?: Partial<Record<AccountTypeWithCountry, string>>;
}

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
  /** The person's brokerage access token (30 minutes); a secret, never logged or sent to the browser. */
  jwt?: string;
  /** What renews the access token when it expires (§7 token refresh); a secret kept server-side only. */
  refreshToken?: string;
  routingStatus?: RoutingStatus;
  identificationError?: IdentificationError;
  prospectId?: string;
  /** Routing said SHOULD_NOT_UPDATE_STATUS: the prospect is a legacy (v2) one and the legacy flow is used. */
  legacyFlow?: boolean;
  customerInformation?: CustomerInformationProgress;
  creationRun?: number;
  /** Campaign of the entry query (spec §3 campaign types); picks the signup image. */
  campaign?: Campaign;
}

declare module 'express-session' {
  interface SessionData {
    journey: Journey;
  }
}

export function newJourney(country: CountryCode): Journey {
  return { country, customerType: 'none', webview: false, queryParams: {} };
}
