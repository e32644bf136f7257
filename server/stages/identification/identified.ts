// What every identification method does once it knows who the person is (BankID, or the OIDC broker
// for DK/NO/FI): end the brokerage sessions of an earlier identification in this browser, start the
// person's part of the journey afresh and give the session a new id.
import type { Request } from 'express';
import type { AppDeps } from '../../deps.ts';
import { forgetProspect, typedAnswersOf, type Journey } from '../../journey.ts';
import { endBrokerageSessions } from '../../endJourney.ts';

/**
 * Records the identified person. Anything belonging to an earlier person in this browser (routing,
 * prospect, steps, creation run) is dropped, so the new person is routed for themselves.
 * A fresh session id after identification prevents session fixation.
 */
export async function completeIdentification(
  req: Request,
  deps: Pick<AppDeps, 'brokerage' | 'logger' | 'config'>,
  journey: Journey,
  person: { natregno: string; names?: Journey['names']; jwt: string; refreshToken: string },
): Promise<void> {
  // The logout of current sessions (identification-routing-creation §4, §7), once per identification
  // instead of on every page view: an earlier identification's sessions end before its tokens are dropped.
  if (journey.jwt || journey.refreshToken) await endBrokerageSessions(deps, journey, 'new identification');
  // The same person again (their session had expired): what they typed prefills the new prospect's steps.
  // Anyone else finds nothing of it.
  const typed = journey.natregno === person.natregno ? typedAnswersOf(journey.customerInformation?.answers) : {};
  forgetProspect(journey);
  if (Object.keys(typed).length > 0) journey.typedAnswers = { ...journey.typedAnswers, ...typed };
  else if (journey.natregno !== person.natregno) delete journey.typedAnswers;
  delete journey.identificationError;
  journey.natregno = person.natregno;
  if (person.names) journey.names = person.names;
  else delete journey.names;
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
