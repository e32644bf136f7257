// Contact information (customer-information.md §2.3, §4.4, §5 "Contact", §7, §8): phone with a country
// prefix and e-mail, checked by shared/contactInformation.ts on every submit (the island checks the same
// on blur), then POST submit-contact-info-step. A 400 naming fields marks those fields; anything else goes
// to the page's call wrapper. The registered address comes from "related data by step name".
import { z } from 'zod';
import { finish, stepOf, type StepContext } from '../stepModule.ts';
import type { ContactRelatedData } from '../../../../shared/contracts/brokerageContract.ts';
import {
  checkContact,
  defaultPhonePrefix,
  isPhonePrefix,
  phonePrefixes,
  populationRegisterAuthorities,
  splitPhone,
  type ContactError,
  type ContactField,
  type ContactInput,
} from '../../../../shared/contactInformation.ts';
import { suggestEmail } from '../../../../shared/emailAddress.ts';
import { ContactInformationStep } from '../../../../views/pages/ContactInformationStepView.tsx';
import type { ContactFormProps } from '../../../../views/components/ContactInformationForm.tsx';
import { UpstreamError } from '../../../upstream/http.ts';

type ContactScreen = 'contact';
type Ctx = StepContext<ContactScreen>;
const { defineStep, screen, goTo, again } = stepOf<ContactScreen>();

// Fields as an HTML form posts them; lengths capped so a hostile post cannot bloat the session. Each
// field falls back on its own (.catch), so one odd field never drops the others' input.
const text = (max: number) => z.string().max(max).catch('');
const body = z.object({
  phonePrefix: z.string().refine(isPhonePrefix).optional().catch(undefined),
  phone: text(40),
  email: text(320),
  suggestionShownFor: text(320),
  /** The no-JS suggestion button: the suggested address to put in the field. */
  useSuggestion: z.string().max(320).optional().catch(undefined),
});

const errorKeys: Record<ContactError, string> = {
  email: 'contactInformation.error.email',
  phone: 'contactInformation.error.phone',
  phoneMissingPlus: 'contactInformation.error.phoneMissingPlus',
  emailApi: 'contactInformation.error.emailApi',
  phoneApi: 'contactInformation.error.phoneApi',
};

/** What the upstream knows; a failure only hides the card (the form still works), and is logged without PII. */
async function relatedData(ctx: Ctx): Promise<ContactRelatedData | null> {
  try {
    return await ctx.brokerage.contactRelatedData(ctx.prospectId);
  } catch (err) {
    if (!(err instanceof UpstreamError)) throw err;
    ctx.deps.logger.warn({ status: err.status }, 'contact related data unavailable');
    return null;
  }
}

function answersOf(ctx: Ctx) {
  ctx.ci.answers ??= {};
  return ctx.ci.answers;
}

/** The form's values: the last typed answers, else what the upstream already knows, else empty. */
function initialInput(ctx: Ctx, known: ContactRelatedData | null): ContactInput & { suggestionShownFor: string } {
  const saved = ctx.ci.answers?.contactInformation;
  const fallback = defaultPhonePrefix(ctx.journey.country);
  if (saved) return { prefix: saved.prefix, phone: saved.phone, email: saved.email, suggestionShownFor: saved.suggestionShownFor ?? '' };
  const phone = known?.mobilePhoneNumber ? splitPhone(known.mobilePhoneNumber, fallback) : { prefix: fallback, number: '' };
  return { prefix: phone.prefix, phone: phone.number, email: known?.email ?? '', suggestionShownFor: '' };
}

async function contactView(
  ctx: Ctx,
  input: ContactInput & { suggestionShownFor: string },
  errors: Partial<Record<ContactField, ContactError>> = {},
  known?: ContactRelatedData | null,
) {
  const { t } = ctx;
  const registered = known === undefined ? await relatedData(ctx) : known;
  const [before, after] = t('contactInformation.suggestion', { suggestion: '\u0000' }).split('\u0000') as [string, string?];
  const suggestion = suggestEmail(input.email);
  const form: ContactFormProps = {
    action: ctx.action,
    screenFields: ctx.fields(),
    values: { prefix: input.prefix, phone: input.phone, email: input.email },
    suggestion,
    errors,
    // Rendered by the server, the suggestion (if any) is on screen now.
    suggestionShownFor: suggestion ? input.email : input.suggestionShownFor,
    prefixes: phonePrefixes.map((p) => ({ prefix: p.prefix, label: t(`contactInformation.prefix.${p.country}`, { prefix: p.prefix }) })),
    texts: {
      phoneLabel: t('contactInformation.phone.label'),
      prefixLabel: t('contactInformation.phone.prefix'),
      emailLabel: t('contactInformation.email.label'),
      continue: t('contactInformation.continue'),
      errorSummary: t('form.error.summary'),
      suggestion: [before, after ?? ''],
      errors: Object.fromEntries(Object.entries(errorKeys).map(([k, key]) => [k, t(key)])) as Record<ContactError, string>,
    },
  };
  return (
    <ContactInformationStep
      t={t}
      form={form}
      registered={registered}
      authority={populationRegisterAuthorities[ctx.journey.country]}
      privacyUrl={ctx.deps.config.PRIVACY_URL}
    />
  );
}

export const contactInformation = defineStep({
  id: 'CONTACT_INFORMATION_STEP',
  first: 'contact',
  answers: 'contactInformation',
  screens: {
    contact: screen({
      input: body,
      async view(ctx) {
        const known = await relatedData(ctx);
        return contactView(ctx, initialInput(ctx, known), {}, known);
      },
      async submit(ctx, fields) {
        const saved = ctx.ci.answers?.contactInformation;
        const prefix = fields.phonePrefix ?? saved?.prefix ?? defaultPhonePrefix(ctx.journey.country);

        // The no-JS suggestion button posts only the suggestion: take it (if it is the suggestion of the
        // saved e-mail) and show the form again with it.
        if (fields.useSuggestion !== undefined) {
          const shown = saved ?? initialInput(ctx, await relatedData(ctx));
          if (suggestEmail(shown.email) === fields.useSuggestion) {
            answersOf(ctx).contactInformation = {
              prefix: shown.prefix,
              phone: shown.phone,
              email: fields.useSuggestion,
              suggestionShownFor: fields.useSuggestion,
            };
          }
          return goTo(ctx.screen);
        }

        const input: ContactInput = { prefix, phone: fields.phone.trim(), email: fields.email.trim() };
        // Kept as typed, so a reload or a second tab shows it again.
        answersOf(ctx).contactInformation = { ...input, suggestionShownFor: fields.suggestionShownFor };
        const checked = checkContact(input);
        if (!checked.ok) {
          return again(await contactView(ctx, { ...input, suggestionShownFor: fields.suggestionShownFor }, checked.errors));
        }
        // Without JavaScript the suggestion could only be seen after a submit: show it once before going on.
        if (suggestEmail(input.email) && fields.suggestionShownFor !== input.email) {
          return again(await contactView(ctx, { ...input, suggestionShownFor: fields.suggestionShownFor }), 200);
        }

        const result = await ctx.brokerage.submitContactInfo(ctx.prospectId, { mobilePhoneNumber: checked.mobilePhoneNumber, email: checked.email });
        if (!result.ok) {
          // customer-information §8: each listed field is marked with an API error. Field names only: never the values.
          ctx.deps.logger.warn(
            { fields: result.fields.filter((f) => f === 'email' || f === 'mobilePhoneNumber') },
            'contact information refused by the brokerage',
          );
          const errors: Partial<Record<ContactField, ContactError>> = {};
          if (result.fields.includes('email')) errors.email = 'emailApi';
          if (result.fields.includes('mobilePhoneNumber')) errors.phone = 'phoneApi';
          // A refusal naming neither field is an unexpected answer: the call wrapper's generic error.
          if (!errors.email && !errors.phone) throw new UpstreamError('brokerage', 400, undefined, 'contact submit refused without known fields');
          return again(await contactView(ctx, { ...input, suggestionShownFor: fields.suggestionShownFor }, errors));
        }
        // Accepted: the number is stored once, in E.164 (what later screens read and show formatted), and the form
        // shows it formatted from now on (070-123 45 67 under +46, whichever way it was typed).
        const shown = splitPhone(checked.mobilePhoneNumber, prefix);
        answersOf(ctx).contactInformation = {
          prefix: shown.prefix,
          phone: shown.number,
          email: checked.email,
          suggestionShownFor: fields.suggestionShownFor,
          mobilePhoneNumber: checked.mobilePhoneNumber,
        };
        return finish;
      },
    }),
  },
});
