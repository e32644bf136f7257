// What every identification method does once it knows who the person is (BankID, or the OIDC broker
// for DK/NO/FI): end the brokerage sessions of an earlier identification in this browser, start the
// person's part of the journey afresh and give the session a new id.
import type { Request } from 'express';
import type { AppDeps } from '../../deps.ts';
import type { Journey } from '../../journey.ts';

/**
 * Records the identified person. Anything belonging to an earlier person in this browser (routing,
 * prospect, steps, creation run) is dropped, so the new person is routed for themselves.
 * A fresh session id after identification prevents session fixation.
 */
export async function completeIdentification(
  req: Request,
  deps: Pick<AppDeps, 'brokerage' | 'logger'>,
  journey: Journey,
  person: { natregno: string; jwt: string; refreshToken: string },
): Promise<void> {
  await endEarlierSessions(deps, journey);
  delete journey.routingStatus;
  delete journey.identificationError;
  delete journey.prospectId;
  delete journey.legacyFlow;
  delete journey.customerInformation;
  delete journey.creationRun;
  journey.natregno = person.natregno;
  journey.jwt = person.jwt;
  journey.refreshToken = person.refreshToken;
  return new Promise((resolve, reject) =>
    req.session.regenerate((err) => {
      if (err) return reject(err);
      req.session.journey = journey;
      resolve();
    }),
  );
}

/**
 * The logout of current sessions (identification-routing-creation §4 "Identification (DK, FI, NO)",
 * §7 logout), once per identification instead of on every page view: the brokerage sessions of an
 * earlier identification in this browser end upstream before their tokens are dropped. It needs that
 * identification's own credentials (a logout without them ends nothing), and the access token lives
 * 30 minutes, so the refresh token first buys a current one. Never blocks the identification; a 401
 * (nothing left to end) is ignored by the client, anything else is a warning without personal data.
 */
async function endEarlierSessions(deps: Pick<AppDeps, 'brokerage' | 'logger'>, journey: Journey): Promise<void> {
  if (!journey.jwt && !journey.refreshToken) return;
  let jwt = journey.jwt;
  if (journey.refreshToken) {
    jwt = await deps.brokerage.refreshToken(journey.refreshToken).then(
      (fresh) => fresh.jwt,
      () => jwt,
    );
  }
  if (!jwt) return;
  await deps.brokerage.logout(jwt).catch((err: Error) => deps.logger.warn({ err: { name: err.name, message: err.message } }, 'logout of the earlier identification failed'));
}
