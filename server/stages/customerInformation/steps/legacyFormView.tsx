// The legacy single form's views (customer-information.md §2.3 "Legacy single form", §5, §8): the form with
// its cards, errors and sensitive answers' dialogs, and the review (check your answers, WCAG 2.2 SC 3.3.4).

import { localeOf, supportPhoneOf } from '../../../pages.ts';
import { type Questionnaire } from '../../../../shared/contracts/kycContract.ts';
import { type FormBanner, type LegacyFieldProblem, type LegacyFormAnswers } from '../../../../shared/legacyProspect.ts';
import { sensitiveAnswerRules } from '../../../../shared/sensitiveAnswers.ts';
import { countryName } from '../../../../shared/countries.ts';
import { LegacyFormStep, type LegacyBanner } from '../../../../views/pages/LegacyFormStepView.tsx';
import { type DialogProps } from '../../../../views/components/Dialog.tsx';
import { complianceDialogProps } from '../../../../views/components/ComplianceDialog.tsx';
import { legacyFormFields, type Presenting } from './legacyFormPresenter.ts';
import { dialogFields, questionnaireOf, type Ctx, type DialogField } from './legacyFormState.ts';

// --- texts -------------------------------------------------------------------------------------------

/** customer-information §8: the banner of a form-level outcome, with the support and manual-signing links. */
function bannerOf(ctx: Ctx, banner: FormBanner): LegacyBanner {
  const { t, deps } = ctx;
  const supportPhone = supportPhoneOf(ctx.req, deps);
  const links = [
    { label: t('legacy.banner.support', { phone: supportPhone }), href: `tel:${supportPhone.replace(/[^+\d]/g, '')}` },
    { label: t('legacy.banner.manualSigning'), href: deps.config.MANUAL_SUPPORT_URL },
  ];
  return { title: t(`legacy.banner.${banner}.title`), text: t(`legacy.banner.${banner}.text`), links: banner === 'inputsAreInvalid' ? [] : links };
}

export function dialogProps(ctx: Ctx, d: DialogField, mode: 'screen' | 'modal'): DialogProps {
  const { t, action, fields, deps, journey } = ctx;
  const rule = sensitiveAnswerRules[d.question];
  const id = `legacy-${d.question}-${mode}`;
  const post = (intent: string) => ({ action, fields: { ...fields(d.screen), intent } });
  // FATCA's texts name the market (country) and may inflect it by its code (countryCode; Finnish: "vain Suomessa").
  const values: Record<string, string> =
    rule.dialog === 'FATCA' ? { country: countryName(journey.country, localeOf(ctx.req, deps)), countryCode: journey.country } : { country: journey.country };
  const base =
    rule.dialog === 'INVESTMENT_RISK'
      ? complianceDialogProps(t, 'INVESTMENT_RISK', { id, values, primary: post('confirm'), secondary: post('cancel') })
      : complianceDialogProps(t, rule.dialog, {
          id,
          values,
          primary: post('confirm'),
          secondary: post('cancel'),
          manualFormBase: deps.config.MANUAL_SUPPORT_URL,
        });
  // On the legacy form the way on with such an answer is the manual form (the dialog's link); cancel only keeps the
  // answer. The steps' citizenship and residency dialogs speak of the next steps, which the legacy form has not:
  // their own texts here, and residency's primary action answers the question instead of "Continue".
  return {
    ...base,
    ...(rule.dialog === 'CITIZENSHIP' ? { text: [t('legacy.dialog.citizenship.text')] } : {}),
    ...(rule.dialog === 'RESIDENCY'
      ? {
          text: [t('legacy.dialog.residency.text')],
          primary: { ...base.primary, label: t('legacy.residency.inOffice', { country: journey.country }) },
        }
      : {}),
    secondary: { ...post('cancel'), label: t('complianceDialog.cancel') },
    ...(mode === 'modal' ? { closes: ['primary', 'secondary'] as const } : {}),
  } as DialogProps;
}

// --- the form's view ---------------------------------------------------------------------------------

export interface FormOutcome {
  problems?: readonly LegacyFieldProblem[];
  /** Field errors from saving (customer-information §8), by field. */
  saveErrors?: Record<string, string>;
  banner?: FormBanner;
}

/** What the presenter's texts depend on, for this request. */
export const presentingOf = (ctx: Ctx): Presenting => ({ t: ctx.t, market: ctx.journey.country, locale: localeOf(ctx.req, ctx.deps) });

export async function formView(ctx: Ctx, answers: LegacyFormAnswers, outcome: FormOutcome = {}, known?: Questionnaire['questions']) {
  const { t, journey, deps } = ctx;
  const questions = known ?? (await questionnaireOf(ctx));
  const form = legacyFormFields(presentingOf(ctx), answers, questions, outcome);
  for (const q of form.leftOut) deps.logger.warn(q, 'legacy form: question of an unknown answer type left out');
  const { errors } = form;

  return (
    <LegacyFormStep
      action={`${ctx.action}?shouldUseLegacyFlow=true`}
      fields={ctx.fields('form')}
      texts={{
        title: t('legacy.title'),
        intro: t('legacy.intro'),
        accounts: t('accountPicker.title'),
        accountsLegend: t('legacy.accounts.legend'),
        aliasesTitle: t('accountAlias.title'),
        aliasesHint: t('legacy.alias.hint'),
        person: t('legacy.person.title'),
        contact: t('contactInformation.title'),
        kyc: t('legacy.kyc.title'),
        kycIntro: t('legacy.kyc.intro'),
        risk: t('legacy.risk.title'),
        sign: t('legacy.sign'),
        errorSummary: t('form.error.summary'),
        chooseOption: t('kyc.select.placeholder'),
      }}
      {...(outcome.banner ? { banner: bannerOf(ctx, outcome.banner) } : {})}
      errors={form.summary}
      accounts={form.accounts}
      nationalId={{
        label: t('legacy.nationalId.label'),
        value: journey.natregno ?? '',
        hint: t('legacy.nationalId.hint'),
        minorLink: { label: t('legacy.nationalId.minorLink'), href: deps.config.MINOR_FORM_URL },
        ...(errors.nationalId ? { error: errors.nationalId } : {}),
      }}
      text={form.text}
      kyc={form.kyc}
      risk={form.risk}
      dialogs={dialogFields
        .filter((d) => d.field !== 'kyc-84' || questions.some((q) => q.question_id === 84))
        .map((d) => {
          const rule = sensitiveAnswerRules[d.question];
          return {
            props: dialogProps(ctx, d, 'modal'),
            watcher: { name: d.field, sensitive: rule.sensitive.map(String), resetTo: String(rule.resetTo), dialogId: `legacy-${d.question}-modal` },
          };
        })}
    />
  );
}
