// The legacy single form, EXISTING_STEP (customer-information §2.3 "Legacy single form", §3, §4.9, §4.10, §5, §7, §8):
// every question on one page. Screens: form ('Sign agreements' checks it all, then the first sensitive answer's
// dialog, the errors, or the review), review (check your answers, then Sign saves and goes to signing), and each
// *Dialog as a screen without JavaScript. Its parts: legacyFormState, legacyFormView, legacyFormReview, legacyFormSave.
import { z } from 'zod';
import { stepOf, type Screen } from '../stepModule.ts';
import { isDanishCampaign } from '../../../../shared/accountPicker.ts';
import { legacyFormProblems, type LegacyFormAnswers } from '../../../../shared/legacyProspect.ts';
import { sensitiveAnswerRules, type SensitiveQuestionAnswers } from '../../../../shared/sensitiveAnswers.ts';
import { reopenableSigningUrl } from '../../../../shared/signingReturn.ts';
import { Dialog } from '../../../../views/components/Dialog.tsx';
import {
  answersFrom,
  currentAnswers,
  dialogFields,
  firstSensitive,
  formBody,
  keep,
  questionnaireOf,
  rulesQuestions,
  stateOf,
  type DialogField,
  type LegacyScreen,
} from './legacyFormState.ts';
import { dialogProps, formView } from './legacyFormView.tsx';
import { reviewView } from './legacyFormReview.tsx';
import { save } from './legacyFormSave.ts';

const { defineStep, screen, goTo, again } = stepOf<LegacyScreen>();

// --- the screens -------------------------------------------------------------------------------------

const form = screen({
  input: formBody,
  async view(ctx) {
    const answers = await currentAnswers(ctx);
    const kept = stateOf(ctx)?.fieldErrors;
    return formView(ctx, answers, kept && Object.keys(kept).length > 0 ? { saveErrors: kept } : {});
  },
  async submit(ctx, body) {
    const posted = answersFrom(body, isDanishCampaign(ctx.journey.country, ctx.journey.campaign));
    // Kept before the questionnaire call, so its failure loses nothing typed; then only its own questions are kept.
    keep(ctx, posted, { fieldErrors: {} });
    const questions = await questionnaireOf(ctx);
    const asked = new Set(questions.map((q) => q.question_id));
    const answers: LegacyFormAnswers = { ...posted, kyc: Object.fromEntries(Object.entries(posted.kyc).filter(([id]) => asked.has(Number(id)))) };
    keep(ctx, answers);
    const problems = legacyFormProblems(answers, { market: ctx.journey.country, questions: rulesQuestions(questions) });
    const sensitive = firstSensitive(problems);
    if (sensitive) return goTo(sensitive.screen);
    // customer-information §4.9: an invalid section sends nothing; every field's problem is shown at once.
    if (problems.length > 0) return again(await formView(ctx, answers, { problems, banner: 'inputsAreInvalid' }, questions));
    return goTo('review');
  },
});

/** The review's sections, each the id of a card of the form (views/pages/LegacyFormStepView.tsx). */
const reviewSections = ['accounts', 'person', 'contact', 'kyc', 'risk'] as const;

const review = screen({
  input: z.object({ intent: z.enum(['sign', 'change']).catch('change'), section: z.enum(reviewSections).optional().catch(undefined) }),
  async view(ctx) {
    const answers = await currentAnswers(ctx);
    const questions = await questionnaireOf(ctx);
    return reviewView(ctx, answers, questions);
  },
  async submit(ctx, input) {
    if (input.intent === 'change') {
      // The form again, at the card to change (its heading).
      return goTo('form', input.section ? `legacy-${input.section}-title` : undefined);
    }
    // Back from the signing page with nothing changed: the same signing again, no second save (customer-information §4.8),
    // while that order can still be signed (not cancelled, postponed or past SIGNING_ORDER_LIFETIME_MS).
    const kept = reopenableSigningUrl(stateOf(ctx), ctx.deps.now(), ctx.deps.config.SIGNING_ORDER_LIFETIME_MS);
    if (kept) return { kind: 'redirect', url: kept };
    const answers = await currentAnswers(ctx);
    const questions = await questionnaireOf(ctx);
    // Saved answers that the rules no longer accept (the questionnaire changed): back to the form to say which.
    const problems = legacyFormProblems(answers, { market: ctx.journey.country, questions: rulesQuestions(questions) });
    if (problems.length > 0) return again(await formView(ctx, answers, { problems, banner: 'inputsAreInvalid' }, questions), 400, { screen: 'form' });
    return save(ctx, answers, questions);
  },
});

/** A sensitive answer's dialog as a screen: confirm puts the harmless answer back, cancel keeps the answer. */
function dialogScreen(name: DialogField['screen']): Screen<LegacyScreen> {
  const d = dialogFields.find((f) => f.screen === name)!;
  return screen({
    input: z.object({ intent: z.enum(['confirm', 'cancel']).catch('cancel') }),
    view: (ctx) => <Dialog {...dialogProps(ctx, d, 'screen')} />,
    async submit(ctx, input) {
      if (input.intent === 'confirm') {
        const answers = await currentAnswers(ctx);
        const rule = sensitiveAnswerRules[d.question];
        const next: LegacyFormAnswers =
          d.question === 'pep'
            ? { ...answers, kyc: { ...answers.kyc, 84: [rule.resetTo as number] } }
            : { ...answers, [d.field]: rule.resetTo as SensitiveQuestionAnswers[Exclude<typeof d.question, 'pep'>] };
        keep(ctx, next);
      }
      return goTo('form');
    },
  });
}

export const legacyForm = defineStep({
  id: 'EXISTING_STEP',
  first: 'form',
  screens: {
    form,
    review,
    citizenshipDialog: dialogScreen('citizenshipDialog'),
    residencyDialog: dialogScreen('residencyDialog'),
    crsDialog: dialogScreen('crsDialog'),
    pepDialog: dialogScreen('pepDialog'),
    riskDialog: dialogScreen('riskDialog'),
  },
});
