// Citizenship step screens (customer-information.md §2.3 "Citizenship"): the choice with the CITIZENSHIP
// dialog (a modal over the choice with JavaScript, the `dialog` screen without), the country
// multi-select, and the proof of citizenship per country (the shared upload screen).
import type { Translate } from '../../shared/i18n.ts';
import type { CountryCode } from '../../shared/contracts/brokerageContract.ts';
import type { CitizenshipChoice as Choice, UploadedFileRef } from '../../shared/citizenship.ts';
import type { CountryOption } from '../../shared/countries.ts';
import { Island } from '../components/Island.tsx';
import { CitizenshipChoice } from '../components/CitizenshipChoice.tsx';
import { CountrySelect } from '../components/CountrySelect.tsx';
import { Dialog, ModalDialog, type DialogProps } from '../components/Dialog.tsx';
import { UploadScreen } from '../components/UploadScreen.tsx';
import type { ScreenFieldValues } from '../components/ScreenForm.tsx';
import { manualFormUrl } from '../../shared/complianceDialogTypes.ts';

export const CITIZENSHIP_DIALOG_ID = 'citizenship-dialog';
const flags: Record<CountryCode, string> = { SE: '🇸🇪', NO: '🇳🇴', DK: '🇩🇰', FI: '🇫🇮' };

/**
 * customer-information §4.7: the primary action resets to the market's answer; continue posts the choice
 * confirmed (as the choice island does after the modal) and goes on to the countries. `fields` are the
 * dialog screen's.
 */
export function citizenshipDialog(t: Translate, market: CountryCode, action: string, fields: ScreenFieldValues): DialogProps {
  return {
    id: CITIZENSHIP_DIALOG_ID,
    title: t('citizenship.dialog.title'),
    text: [t('citizenship.dialog.text')],
    primary: { label: t('citizenship.onlyHome', { country: market }), action, fields: { ...fields, intent: 'resetChoice' } },
    secondary: { label: t('citizenship.dialog.continue'), action, fields: { ...fields, intent: 'choose', choice: 'otherCitizenships', confirmed: 'yes' } },
    closes: ['primary', 'secondary'],
  };
}

/** The external manual form; the exit parameter holds the dialog type (customer-information §2.3 compliance dialogs). */
export function ManualFormLink({ t, url }: { t: Translate; url: string }) {
  return (
    <p>
      <a href={manualFormUrl(url, 'CITIZENSHIP')}>{t('citizenship.dialog.form')}</a>
    </p>
  );
}

/** The `choice` screen, with the CITIZENSHIP dialog as a modal over it (its forms post the `dialog` screen's fields). */
export function CitizenshipChoiceStep(props: {
  t: Translate;
  market: CountryCode;
  action: string;
  fields: ScreenFieldValues;
  dialogFields: ScreenFieldValues;
  chosen?: Choice;
  error?: string;
}) {
  const { t, market, action } = props;
  return (
    <>
      <Island
        name="citizenshipChoice"
        component={CitizenshipChoice}
        props={{
          action,
          fields: props.fields,
          chosen: props.chosen ?? null,
          error: props.error ?? null,
          dialogId: CITIZENSHIP_DIALOG_ID,
          texts: {
            title: t('citizenship.title'),
            flag: flags[market],
            onlyHome: t('citizenship.onlyHome', { country: market }),
            other: t('citizenship.other'),
            continue: t('citizenship.continue'),
          },
        }}
      />
      <ModalDialog {...citizenshipDialog(t, market, action, props.dialogFields)} />
    </>
  );
}

/** The `dialog` screen: without JavaScript the dialog is a screen of its own, with the same choices and the manual form link. */
export function CitizenshipDialogScreen(props: { t: Translate; market: CountryCode; action: string; fields: ScreenFieldValues; manualFormUrl: string }) {
  return (
    <>
      <Dialog {...citizenshipDialog(props.t, props.market, props.action, props.fields)} />
      <ManualFormLink t={props.t} url={props.manualFormUrl} />
    </>
  );
}

/** The `countries` screen. */
export function CitizenshipCountriesStep(props: {
  t: Translate;
  action: string;
  fields: ScreenFieldValues;
  options: CountryOption[];
  chosen: string[];
  error?: string;
  manualFormUrl: string;
}) {
  const { t } = props;
  return (
    <>
      <Island
        name="countrySelect"
        component={CountrySelect}
        props={{
          action: props.action,
          fields: { ...props.fields, intent: 'countries' },
          legend: t('citizenship.countries.title'),
          options: props.options,
          chosen: props.chosen,
          labels: {
            search: t('citizenship.countries.search'),
            noResults: t('citizenship.countries.noResults'),
            chosen: t('citizenship.countries.chosen'),
            countries: t('citizenship.countries.all'),
            continue: t('citizenship.continue'),
          },
          error: props.error ?? null,
        }}
      />
      <ManualFormLink t={t} url={props.manualFormUrl} />
    </>
  );
}

/** One proof card: a country needing proof of citizenship. */
export interface ProofCard {
  country: string;
  countryName: string;
  files: readonly UploadedFileRef[];
  error?: string;
}

/** The `proof` screen: the upload screen with a card (slot) per country other than the market. */
export function CitizenshipProofStep(props: {
  t: Translate;
  action: string;
  fields: ScreenFieldValues;
  cards: ProofCard[];
  complete: boolean;
  removeHref: (country: string, attachmentId: string) => string;
  error?: string;
}) {
  const { t } = props;
  return (
    <UploadScreen
      t={t}
      id="proof"
      title={t('citizenship.proof.title')}
      intro={<p>{t('citizenship.proof.text')}</p>}
      action={props.action}
      fields={props.fields}
      slots={props.cards.map((card) => ({
        key: card.country,
        title: card.countryName,
        label: t('citizenship.proof.upload', { country: card.countryName }),
        files: card.files,
        ...(card.error ? { error: card.error } : {}),
      }))}
      complete={props.complete}
      missing={t('citizenship.proof.missing')}
      continueLabel={t('citizenship.continue')}
      removeHref={props.removeHref}
      {...(props.error ? { error: props.error } : {})}
    />
  );
}
