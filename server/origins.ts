// Our own origins, built from configuration only: PUBLIC_URL and one origin per market host of
// COUNTRY_HOSTS (scheme and port from PUBLIC_URL). A request's Host or X-Forwarded-* headers only ever
// pick one of these by exact match; they never become part of a URL we send anywhere.
import type { Request } from 'express';
import type { Config } from './config.ts';
import type { CountryCode } from '../shared/contracts/brokerageContract.ts';

export interface OwnOrigin {
  /** e.g. https://onboarding.example.dk */
  origin: string;
  /** URL.host of origin (host name, and the port when not the scheme's default), lower case. */
  host: string;
  /** The market of a market host; undefined for PUBLIC_URL's own origin when it is no market host. */
  country?: CountryCode;
}

type OriginConfig = Pick<Config, 'publicUrl' | 'countryByHost'>;

// The last answer per market host map, for its PUBLIC_URL: asked several times per page, and URL parsing was 10 % of the
// start page's CPU.
const computed = new WeakMap<Config['countryByHost'], { publicUrl: string; origins: readonly OwnOrigin[] }>();

/** PUBLIC_URL's origin first, then each market host's. Follows PUBLIC_URL: tests learn the port only after listen. */
export function ownOrigins(config: OriginConfig): readonly OwnOrigin[] {
  const last = computed.get(config.countryByHost);
  if (last?.publicUrl === config.publicUrl) return last.origins;
  const origins = originsOf(config);
  computed.set(config.countryByHost, { publicUrl: config.publicUrl, origins });
  return origins;
}

function originsOf(config: OriginConfig): OwnOrigin[] {
  const base = new URL(config.publicUrl);
  const origins: OwnOrigin[] = [];
  const add = (entry: OwnOrigin) => {
    if (!origins.some((o) => o.origin === entry.origin)) origins.push(entry);
  };
  const baseCountry = config.countryByHost.get(base.hostname.toLowerCase());
  add({ origin: base.origin, host: base.host.toLowerCase(), ...(baseCountry ? { country: baseCountry } : {}) });
  for (const [hostname, country] of config.countryByHost) {
    const u = new URL(base.origin);
    u.hostname = hostname;
    add({ origin: u.origin, host: u.host.toLowerCase(), country });
  }
  return origins;
}

/** The host the browser says it is on (Host, or X-Forwarded-Host behind a trusted proxy), as sent, lower case. */
function requestedHost(req: Request): string | undefined {
  // Express 5's req.host honours 'trust proxy' for X-Forwarded-Host and keeps the port; it is only
  // compared below, whole, never used to build anything.
  const host = req.host;
  return typeof host === 'string' && host.length > 0 ? host.toLowerCase() : undefined;
}

/** The configured origin whose host equals the request's host exactly, else PUBLIC_URL's origin. */
export function ownOriginOf(req: Request, config: OriginConfig): OwnOrigin {
  const all = ownOrigins(config);
  const host = requestedHost(req);
  return (host !== undefined ? all.find((o) => o.host === host) : undefined) ?? all[0]!;
}
