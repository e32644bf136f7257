// Content service client for the onboarding background image. The image is decoration: the page never
// waits for it. Pages read the cached answer synchronously; a refresh runs in the background when the
// cache is stale, with a short timeout, and any failure falls back to the static image.
import type { Logger } from 'pino';
import { contentResponse, contentServicePaths, onboardingContentQuery } from '../../shared/contracts/contentServiceContract.ts';
import { createHttpClient, type CallObserver } from './http.ts';
import { outsideRequest } from '../infra/deadline.ts';

export const FALLBACK_BACKGROUND_URL = '/images/background-fallback.svg';

export interface ContentServiceOptions {
  baseUrl: string;
  timeoutMs: number;
  cacheMs: number;
  /** Image origins the page may load (the CSP img-src); an address elsewhere is not used. */
  allowedImageOrigins: string[];
  logger: Logger;
  now?: () => number;
  /** Each call's time and status (server/infra/metrics.ts). */
  observe?: CallObserver;
}

export interface ContentService {
  /** The background image address to render now: the cached content, or the fallback. */
  backgroundUrl(): string;
  /** Fetches the content again; never throws. Start-up awaits it once so the first page has it. */
  refresh(): Promise<void>;
}

export function createContentService(options: ContentServiceOptions): ContentService {
  const http = createHttpClient({
    name: 'content-service',
    baseUrl: options.baseUrl,
    timeoutMs: options.timeoutMs,
    paths: contentServicePaths,
    observe: options.observe,
  });
  const now = options.now ?? Date.now;
  let cached: { url: string; fetchedAt: number } | undefined;
  let inFlight: Promise<void> | undefined;

  async function fetchBackground(): Promise<string> {
    const { data } = await http.json({ method: 'GET', path: contentServicePaths.content, query: { ...onboardingContentQuery }, schema: contentResponse });
    const url = data.items.find((i) => i.techId === onboardingContentQuery.techId)?.fields.backgroundImage?.url;
    if (!url) throw new Error('content-service: no background image in ACE-Onboarding');
    const origin = new URL(url).origin;
    if (!options.allowedImageOrigins.includes(origin)) throw new Error(`content-service: image origin ${origin} is not allowed`);
    return url;
  }

  function refresh(): Promise<void> {
    inFlight ??= fetchBackground()
      .then((url) => {
        cached = { url, fetchedAt: now() };
      })
      .catch((err: unknown) => {
        // Remember the failure too, so a broken service is asked again only after the cache time.
        cached = { url: FALLBACK_BACKGROUND_URL, fetchedAt: now() };
        options.logger.warn({ err }, 'content service failed; using the fallback background');
      })
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  }

  return {
    backgroundUrl() {
      // A page render starts the refresh, but it is background work: outside the page's request deadline,
      // which would otherwise cut it short and cache the fallback for the whole cache time.
      if (!cached || now() - cached.fetchedAt > options.cacheMs) void outsideRequest(refresh);
      return cached?.url ?? FALLBACK_BACKGROUND_URL;
    },
    refresh,
  };
}
