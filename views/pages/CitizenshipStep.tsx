// Citizenship step screens (customer-information.md §2.3 "Citizenship"): the choice with the CITIZENSHIP
// dialog, the country multi-select, and the proof of citizenship per country.
import type { Translate } from '../../shared/i18n.ts';
import type { CountryCode } from '../../shared/contracts/brokerage.ts';
import type { CitizenshipChoice as Choice, UploadedFileRef } from '../../shared/citizenship.ts';
import type { CountryOption } from '../../shared/countries.ts';
import { Island } from '../components/Island.tsx';
import CitizenshipChoice from '../../client/islands/citizenshipChoice.tsx';
import CountrySelect from '../../client/islands/countrySelect.tsx';
import { Dialog, ModalDialog, type DialogProps } from '../components/Dialog.tsx';
import { FileUpload } from '../components/FileUpload.tsx';
import { manualFormUrl } from '../../shared/complianceDialog.ts';
import { CsrfField } from '../components/CsrfField.tsx';

export const CITIZENSHIP_DIALOG_ID = 'citizenship-dialog';
const STEP = 'CITIZENSHIP_STEP';
const flags: Record<CountryCode, string> = { SE: '🇸🇪', NO: '🇳🇴', DK: '🇩🇰', FI: '🇫🇮' };

/** §4.7: the primary action resets to the market's answer; continue goes on to the countries. */
export function citizenshipDialog(t: Translate, market: CountryCode, action: string): DialogProps {
  return {
    id: CITIZENSHIP_DIALOG_ID,
    title: t('citizenship.dialog.title'),
    text: [t('citizenship.dialog.text')],
    primary: { label: t('citizenship.onlyHome', { country: market }), action, fields: { step: STEP, intent: 'resetChoice' } },
    secondary: { label: t('citizenship.dialog.continue'), action, fields: { step: STEP, intent: 'choose', choice: 'otherCitizenships', confirmed: 'yes' } },
    closes: ['primary', 'secondary'],
  };
}

/** The external manual form; the exit parameter holds the dialog type (§2.3 compliance dialogs). */
export function ManualFormLink({ t, url }: { t: Translate; url: string }) {
  return (
    <p>
      <a href={manualFormUrl(url, 'CITIZENSHIP')}>{t('citizenship.dialog.form')}</a>
    </p>
  );
}

export function CitizenshipChoiceStep(props: { t: Translate; market: CountryCode; action: string; chosen?: Choice; error?: string; manualFormUrl: string }) {
  const { t, market, action } = props;
  return (
    <>
      <Island
        name="citizenshipChoice"
        component={CitizenshipChoice}
        props={{
          action,
          dialogId: CITIZENSHIP_DIALOG_ID,
          chosen: props.chosen ?? null,
          legend: t('citizenship.title'),
          onlyHome: t('citizenship.onlyHome', { country: market }),
          flag: flags[market],
          other: t('citizenship.other'),
          continueLabel: t('citizenship.continue'),
          error: props.error ?? null,
        }}
      />
      <ModalDialog {...citizenshipDialog(t, market, action)} />
    </>
  );
}

/** Without JavaScript the dialog is its own screen, with the same choices and the manual form link. */
export function CitizenshipDialogScreen({ t, market, action, manualFormUrl }: { t: Translate; market: CountryCode; action: string; manualFormUrl: string }) {
  return (
    <>
      <Dialog {...citizenshipDialog(t, market, action)} />
      <ManualFormLink t={t} url={manualFormUrl} />
    </>
  );
}

export function CitizenshipCountriesStep(props: { t: Translate; action: string; options: CountryOption[]; chosen: string[]; error?: string; manualFormUrl: string }) {
  const { t } = props;
  return (
    <>
      <Island
        name="countrySelect"
        component={CountrySelect}
        props={{
          action: props.action,
          fields: { step: STEP, intent: 'countries' },
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

export interface ProofCard {
  country: string;
  countryName: string;
  files: UploadedFileRef[];
  error?: string;
}

export function CitizenshipProofStep(props: {
  t: Translate;
  action: string;
  cards: ProofCard[];
  complete: boolean;
  removeHref: (country: string, attachmentId: string) => string;
  error?: string;
}) {
  const { t, action, cards, complete } = props;
  return (
    <section aria-labelledby="citizenship-proof-title">
      <h1 id="citizenship-proof-title">{t('citizenship.proof.title')}</h1>
      <p>{t('citizenship.proof.text')}</p>
      {props.error && (
        <p className="error-summary" role="alert">
          {props.error}
        </p>
      )}
      {cards.map((card) => (
        <section key={card.country} className="card proof-card" aria-labelledby={`proof-${card.country}-title`}>
          <h2 id={`proof-${card.country}-title`}>{card.countryName}</h2>
          <FileUpload
            t={t}
            id={`proof-${card.country}`}
            label={t('citizenship.proof.upload', { country: card.countryName })}
            action={action}
            fields={{ step: STEP, country: card.country }}
            files={card.files}
            removeHref={(attachmentId) => props.removeHref(card.country, attachmentId)}
            error={card.error ?? null}
          />
        </section>
      ))}
      <form method="post" action={action}>
        <CsrfField />
        <input type="hidden" name="step" value={STEP} />
        <input type="hidden" name="intent" value="finish" />
        {!complete && (
          <p id="citizenship-proof-missing" className="field__hint">
            {t('citizenship.proof.missing')}
          </p>
        )}
        <button type="submit" className="btn" disabled={!complete} aria-describedby={complete ? undefined : 'citizenship-proof-missing'}>
          {t('citizenship.continue')}
        </button>
      </form>
    </section>
  );
}
