// Saving the legacy single form (customer-information.md §4.9, §8): the regulation, the prospect update, then
// the signing URL; each refusal back on the form with its text.
import { randomUUID } from 'node:crypto';
import { stepOf } from '../stepModule.ts';
import { localeOf, publicOriginOf } from '../../../pages.ts';
import { legacySaveAttempt } from '../saveAttempts.ts';
import { checkContact, defaultPhonePrefix } from '../../../../shared/contactInformation.ts';
import { carryQuery } from '../../../../shared/carriedQuery.ts';
import { type CountryCode } from '../../../../shared/contracts/brokerageContract.ts';
import { type Questionnaire } from '../../../../shared/contracts/kycContract.ts';
import {
  legacySubmission,
  prospectUpdateErrors,
  prospectUpdatePayload,
  regulationOutcome,
  regulationPayload,
  saveBanner,
  type LegacyFormAnswers,
  type SaveError,
} from '../../../../shared/legacyProspect.ts';
import { signingReturnUrls } from '../../../../shared/signingReturn.ts';
import { keep, stateOf, type Ctx, type LegacyScreen } from './legacyFormState.ts';
import { formView } from './legacyFormView.tsx';

const { again } = stepOf<LegacyScreen>();

/** customer-information §8: the field each save error belongs to (null: the banner only). */
function saveErrorFields(error: SaveError, answers: LegacyFormAnswers): string[] {
  switch (error) {
    case 'notOldEnough':
      return ['nationalId'];
    case 'mobileNumber':
      return ['phoneNumber'];
    case 'email':
      return ['email'];
    case 'doubleName': {
      const several = (name: string) => name.trim().split(/\s+/).length > 1;
      return ['firstName', 'lastName'].filter((f) => several(f === 'firstName' ? answers.firstName : answers.lastName));
    }
    default:
      return [];
  }
}

// --- saving (customer-information §4.9) ----------------------------------------------------------------

/** Regulation, prospect update, signing URL; each refusal back on the form with its §8 text. */
export async function save(ctx: Ctx, answers: LegacyFormAnswers, questions: Questionnaire['questions']) {
  const { journey, deps, brokerage, prospectId, req } = ctx;
  const market: CountryCode = journey.country;
  const state = stateOf(ctx);
  const submission = legacySubmission(answers);
  const nationalId = journey.natregno ?? '';
  const back = async (errors: SaveError[]) => {
    const saveErrors: Record<string, string> = {};
    for (const error of errors) for (const field of saveErrorFields(error, answers)) saveErrors[field] = ctx.t(`legacy.fieldError.${error}`);
    keep(ctx, answers, { fieldErrors: saveErrors });
    deps.logger.warn({ errors }, 'legacy form: saving refused');
    const banner = saveBanner(errors);
    return again(await formView(ctx, answers, { saveErrors, ...(banner ? { banner } : {}) }, questions), errors.includes('highRisk') ? 403 : 422, {
      screen: 'form',
    });
  };

  // The attempt, kept before its first call: a Sign after a timeout repeats these calls under the same keys.
  const { attempt, regulationId } = await legacySaveAttempt(brokerage, state, answers, (id) =>
    regulationPayload(submission, { market, nationalId, addressCountry: market, regulationId: id }),
  );
  keep(ctx, answers, { saveAttempt: attempt, ...(regulationId ? { regulationId } : {}) });

  // 1. The regulation (sent with the earlier one's id, so a second attempt updates it).
  const regulation = regulationOutcome(await brokerage.createRegulation(attempt.regulation, attempt.id));
  keep(ctx, answers, {
    saveAttempt: { ...attempt, regulationAnswered: true },
    ...(regulation.kind === 'success' ? { regulationId: regulation.regulationId } : {}),
  });
  if (regulation.kind !== 'success') return back([regulation.kind]);

  // 2. The prospect.
  const contact = checkContact({ prefix: defaultPhonePrefix(market), phone: answers.phoneNumber, email: answers.email });
  const update = await brokerage.updateProspect(
    prospectId,
    prospectUpdatePayload(submission, {
      market,
      nationalId,
      phoneNumber: contact.ok ? contact.mobilePhoneNumber : answers.phoneNumber,
      email: answers.email,
      firstName: answers.firstName,
      lastName: answers.lastName,
      citizen: market,
      regulationId: regulation.regulationId,
    }),
  );
  if (!update.ok) return back(prospectUpdateErrors(update.fields, answers));

  // 3. The signing URL (legacy variant: nextUrl, the entry's query params, the EPK flag). The order's key is kept with
  // the attempt before the call, so a Sign after a timeout sends the same request (the same Idempotency-Key) and gets
  // the signing session the first try created; once this attempt's order was handed out and has ended (cancelled,
  // postponed, expired: the review did not re-open it), the next order gets a new key and so a new signing session.
  const saved = stateOf(ctx);
  const asked = saved?.saveAttempt?.orderKey;
  const orderKey = asked !== undefined && saved?.orderKey !== asked ? asked : randomUUID();
  keep(ctx, answers, { saveAttempt: { ...(saved?.saveAttempt ?? attempt), orderKey } });
  const returns = signingReturnUrls({
    publicUrl: publicOriginOf(req, deps),
    prospectId,
    webview: journey.webview,
    nativeAppScheme: deps.config.NATIVE_APP_SCHEME,
    orderKey,
  });
  const signatureRequest = {
    ...returns,
    lang: localeOf(req, deps).slice(0, 2),
    // Where the person goes on after signing: customer creation (the app's create deep link in its webview).
    nextUrl: returns.complete_url,
    // Kept to shared/carriedQuery.ts's limits at entry; applied again for a session kept from before those limits.
    queryParams: carryQuery(journey.queryParams).kept,
    epk: answers.accounts.includes('EPK_NO'),
  };
  const signature = await brokerage.requestLegacySignature(prospectId, signatureRequest, attempt.id);
  if (!signature.ok) return back(['highRisk']);
  keep(ctx, answers, { signingUrl: signature.url, orderKey, handedOutAt: deps.now(), fieldErrors: {} });
  return { kind: 'redirect', url: signature.url } as const;
}
