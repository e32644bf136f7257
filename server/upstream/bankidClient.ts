// BankID RP API v6.0 client. Production uses mutual TLS with the RP certificate (configured as PEM paths);
// the sandbox speaks plain HTTP on loopback.
import { Agent } from 'undici';
import { readFileSync } from 'node:fs';
import {
  bankidAuthResponse,
  bankidCancelResponse,
  bankidCollectResponse,
  bankidErrorBody,
  type BankidAuthRequest,
} from '../../shared/contracts/bankidContract.ts';
import { createHttpClient, UpstreamError, type CallObserver } from './http.ts';

export interface BankidClientOptions {
  baseUrl: string;
  timeoutMs: number;
  tls?: { certPath: string; keyPath: string; caPath: string };
  /** Each call's time and status, by call name (server/infra/metrics.ts). */
  observe?: CallObserver;
}

/** The RP API's calls by name (their names in the metrics). */
const bankidPaths = { auth: '/rp/v6.0/auth', collect: '/rp/v6.0/collect', cancel: '/rp/v6.0/cancel' } as const;

export function createBankidClient(options: BankidClientOptions) {
  const dispatcher = options.tls
    ? new Agent({
        connect: {
          cert: readFileSync(options.tls.certPath),
          key: readFileSync(options.tls.keyPath),
          ca: readFileSync(options.tls.caPath),
        },
      })
    : undefined;
  const http = createHttpClient({
    name: 'bankid',
    baseUrl: options.baseUrl,
    timeoutMs: options.timeoutMs,
    dispatcher,
    paths: bankidPaths,
    observe: options.observe,
  });

  return {
    async auth(body: BankidAuthRequest) {
      return (await http.json({ method: 'POST', path: bankidPaths.auth, body, schema: bankidAuthResponse })).data;
    },
    async collect(orderRef: string) {
      return (await http.json({ method: 'POST', path: bankidPaths.collect, body: { orderRef }, schema: bankidCollectResponse })).data;
    },
    async cancel(orderRef: string) {
      await http.json({ method: 'POST', path: bankidPaths.cancel, body: { orderRef }, schema: bankidCancelResponse });
    },
  };
}
export type BankidClient = ReturnType<typeof createBankidClient>;

/** The RP API's errorCode of a failed call, when it sent one. */
export function bankidErrorCode(err: unknown): string | undefined {
  if (!(err instanceof UpstreamError)) return undefined;
  const parsed = bankidErrorBody.safeParse(err.body);
  return parsed.success ? parsed.data.errorCode : undefined;
}
