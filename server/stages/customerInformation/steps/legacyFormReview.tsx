// The legacy single form's review (check your answers, WCAG 2.2 SC 3.3.4; customer-information.md §2.3 "Legacy
// single form"): each section of the form as answered, with a Change back to its card.
import { defaultAccounts } from '../../../../shared/accountPicker.ts';
import { defaultNameKey } from '../../../../shared/accountAlias.ts';
import { defaultPhonePrefix, formatPhone, validatePhone } from '../../../../shared/contactInformation.ts';
import { type CountryCode } from '../../../../shared/contracts/brokerageContract.ts';
import { type Questionnaire } from '../../../../shared/contracts/kycContract.ts';
import { type LegacyFormAnswers } from '../../../../shared/legacyProspect.ts';
import { questionTextKey } from '../../../../shared/legacyQuestionnaire.ts';
import { LegacyReview } from '../../../../views/pages/LegacyReviewStepView.tsx';
import { type Ctx } from './legacyFormState.ts';
import { answerChoices, answerLabel } from './legacyFormPresenter.ts';
import { presentingOf } from './legacyFormView.tsx';

/** The form's phone as the review shows it: formatted as everywhere (formatPhone) once the check reads it, else as typed. */
export function phoneShown(typed: string, market: CountryCode): string {
  const phone = validatePhone(defaultPhonePrefix(market), typed);
  return phone.ok ? formatPhone(phone.e164, market) : typed.trim();
}

export function reviewView(ctx: Ctx, answers: LegacyFormAnswers, questions: Questionnaire['questions']) {
  const { t, journey } = ctx;
  const market = journey.country;
  const presenting = presentingOf(ctx);
  const choices = answerChoices(presenting);
  const change = (section: string, title: string) => ({
    label: t('legacy.review.change', { section: title }),
    action: `${ctx.action}?shouldUseLegacyFlow=true`,
    fields: { ...ctx.fields('review'), intent: 'change', section },
  });
  const accounts = defaultAccounts(market)
    .map((e) => e.accountTypeWithCountry)
    .filter((a) => answers.accounts.includes(a));
  const sections = [
    {
      id: 'accounts',
      title: t('accountPicker.title'),
      rows: accounts.map((a) => ({ label: t(defaultNameKey(a)), value: answers.aliases[a]?.trim() || t(defaultNameKey(a)) })),
    },
    {
      id: 'person',
      title: t('legacy.person.title'),
      rows: [
        { label: t('legacy.nationalId.label'), value: journey.natregno ?? '' },
        { label: t('legacy.firstName'), value: answers.firstName.trim() },
        { label: t('legacy.lastName'), value: answers.lastName.trim() },
      ],
    },
    {
      id: 'contact',
      title: t('contactInformation.title'),
      rows: [
        { label: t('contactInformation.phone.label'), value: phoneShown(answers.phoneNumber, market) },
        { label: t('contactInformation.email.label'), value: answers.email.trim() },
      ],
    },
    {
      id: 'kyc',
      title: t('legacy.kyc.title'),
      rows: [
        ...(['citizenship', 'residency', 'taxLiability'] as const).map((field) => ({
          label: t(`legacy.${field}.legend`),
          value: choices[field].find((c) => c.value === answers[field])?.label ?? '',
        })),
        ...questions
          .filter((q) => (answers.kyc[q.question_id] ?? []).length > 0)
          .map((q) => {
            const key = questionTextKey(q.question_tag);
            const chosen = answers.kyc[q.question_id] ?? [];
            return {
              label: key ? t(key) : q.question_tag,
              value: q.answers.filter((a) => chosen.includes(a.answer_id)).map((a) => answerLabel(presenting, q.question_tag, a.answer_tag)),
            };
          }),
      ],
    },
    {
      id: 'risk',
      title: t('legacy.risk.title'),
      rows: [{ label: t('legacy.risk.legend'), value: answers.investmentRisk === 'yes' ? t('legacy.risk.yes') : '' }],
    },
  ].map((s) => ({ ...s, change: change(s.id, s.title) }));
  return (
    <LegacyReview
      heading={t('legacy.title')}
      title={t('legacy.review.title')}
      intro={t('legacy.review.intro')}
      sections={sections}
      action={`${ctx.action}?shouldUseLegacyFlow=true`}
      fields={ctx.fields('review')}
      labels={{ sign: t('legacy.sign'), signing: t('legacy.signing') }}
    />
  );
}
