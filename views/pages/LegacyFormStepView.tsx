// The legacy single form (customer-information.md §2.3 "Legacy single form", §4.10): one form, one post, every card on
// one page (accounts and their names, personal details, contact, know-your-customer, investment risk), then 'Sign
// agreements'. The error banner and the linked error summary sit on top, each field shows its own message. A sensitive
// answer meets its dialog as a screen after the post, or with JavaScript as a modal at once (the legacyForm island,
// views/components/LegacyKycAnswers.tsx).
import { describedBy, ErrorSummary, FieldError, type SummaryLine } from '../components/ErrorSummary.tsx';
import { ScreenFields, type ScreenFieldValues } from '../components/ScreenForm.tsx';
import { ModalDialog, type DialogProps } from '../components/Dialog.tsx';
import { Island } from '../components/Island.tsx';
import { Card, Fieldset, LegacyKycAnswers, type ChoiceField, type LegacyDialogWatcher, type LegacyKycAnswersProps } from '../components/LegacyKycAnswers.tsx';

export type { Choice, ChoiceField } from '../components/LegacyKycAnswers.tsx';

export interface LegacyAccountRow {
  account: string;
  label: string;
  /** Locked ticked (customer-information §4.2): the box is disabled and a hidden field posts it. */
  mandatory: boolean;
  ticked: boolean;
  /** An exclusive account's confirmation box (DSK, ESA), inline under its account. */
  confirm?: { label: string; text: string; ticked: boolean };
  alias: { id: string; name: string; label: string; value: string; error?: string };
}

export interface LegacyBanner {
  title: string;
  text: string;
  links: Array<{ label: string; href: string }>;
}

export interface LegacyFormViewProps {
  action: string;
  fields: ScreenFieldValues;
  texts: {
    title: string;
    intro: string;
    accounts: string;
    accountsLegend: string;
    aliasesTitle: string;
    aliasesHint: string;
    person: string;
    contact: string;
    kyc: string;
    kycIntro: string;
    risk: string;
    sign: string;
    errorSummary: string;
    chooseOption: string;
  };
  banner?: LegacyBanner;
  errors: readonly SummaryLine[];
  accounts: { rows: LegacyAccountRow[]; error?: string; dskQuestion?: ChoiceField };
  nationalId: { label: string; value: string; hint: string; minorLink: { label: string; href: string }; error?: string };
  text: Array<{
    id: string;
    name: string;
    label: string;
    value: string;
    type: 'text' | 'tel' | 'email';
    autoComplete: string;
    hint?: string;
    error?: string;
    section: 'person' | 'contact';
  }>;
  kyc: ChoiceField[];
  risk: ChoiceField;
  dialogs: Array<{ props: DialogProps; watcher: LegacyDialogWatcher }>;
}

function TextField({ field }: { field: LegacyFormViewProps['text'][number] }) {
  const hintId = field.hint ? `${field.id}-hint` : undefined;
  const described = describedBy(field.id, field.error);
  const describedIds = [hintId, described['aria-describedby']].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${field.error ? ' field--error' : ''}`}>
      <label htmlFor={field.id}>{field.label}</label>
      {field.hint && (
        <p id={hintId} className="field__hint">
          {field.hint}
        </p>
      )}
      <FieldError id={field.id} error={field.error} />
      <input
        id={field.id}
        name={field.name}
        type={field.type}
        defaultValue={field.value}
        autoComplete={field.autoComplete}
        spellCheck={false}
        aria-invalid={described['aria-invalid']}
        aria-describedby={describedIds}
      />
    </div>
  );
}

export function LegacyFormStep(props: LegacyFormViewProps) {
  const { texts, banner, errors, accounts, nationalId, kyc, risk, dialogs } = props;
  // The cards with the answers whose dialogs open at once: the island (views/components/LegacyKycAnswers.tsx).
  const kycAnswers: LegacyKycAnswersProps = {
    texts: { kyc: texts.kyc, kycIntro: texts.kycIntro, risk: texts.risk, chooseOption: texts.chooseOption },
    kyc,
    risk,
    watchers: dialogs.map((d) => d.watcher),
  };
  // The summary's link for the accounts (#legacy-accounts) lands on the first box that is not locked.
  const firstFocusableAccount = Math.max(
    0,
    accounts.rows.findIndex((row) => !row.mandatory),
  );
  return (
    <section className="legacy-form" aria-labelledby="legacy-title">
      <h1 id="legacy-title">{texts.title}</h1>
      <p>{texts.intro}</p>
      {banner && (
        <div className="banner banner--error" role="alert" id="legacy-banner">
          <p>
            <strong>{banner.title}</strong>
          </p>
          <p>{banner.text}</p>
          {banner.links.length > 0 && (
            <ul className="banner__links">
              {banner.links.map((l) => (
                <li key={l.href}>
                  <a href={l.href}>{l.label}</a>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <ErrorSummary title={texts.errorSummary} errors={errors} />
      <form method="post" action={props.action} noValidate>
        <ScreenFields fields={props.fields} />
        <Card id="legacy-accounts" title={texts.accounts}>
          {/* The error is the fieldset's description; the summary links to the first box that can take focus
              (DK's mandatory depot is a disabled box, which cannot). */}
          <fieldset className={`field${accounts.error ? ' field--error' : ''}`} aria-describedby={accounts.error ? 'legacy-accounts-error' : undefined}>
            <legend>{texts.accountsLegend}</legend>
            <FieldError id="legacy-accounts" error={accounts.error} />
            {accounts.rows.map((row, i) => {
              const id = i === firstFocusableAccount ? 'legacy-accounts' : `legacy-accounts-${i}`;
              return (
                <div className="choice" key={row.account}>
                  {row.mandatory ? (
                    <>
                      {/* A disabled box posts nothing: the locked account is posted by a hidden field. A checkbox
                          cannot be readonly in HTML, and no island renders this box, so it is ticked once. */}
                      <input type="hidden" name="accounts" value={row.account} />
                      <input id={id} type="checkbox" defaultChecked disabled />
                    </>
                  ) : (
                    <input id={id} type="checkbox" name="accounts" value={row.account} defaultChecked={row.ticked} />
                  )}
                  <label htmlFor={id}>{row.label}</label>
                  {row.confirm && (
                    <div className="choice__conditional">
                      <p className="field__hint">{row.confirm.text}</p>
                      <input id={`legacy-confirm-${row.account}`} type="checkbox" name="confirmed" value={row.account} defaultChecked={row.confirm.ticked} />
                      <label htmlFor={`legacy-confirm-${row.account}`}>{row.confirm.label}</label>
                    </div>
                  )}
                </div>
              );
            })}
          </fieldset>
          {accounts.dskQuestion && <Fieldset field={accounts.dskQuestion} />}
          <h3>{texts.aliasesTitle}</h3>
          <p className="field__hint">{texts.aliasesHint}</p>
          {accounts.rows.map((row) => (
            <TextField key={row.alias.id} field={{ ...row.alias, type: 'text', autoComplete: 'off', section: 'person' }} />
          ))}
        </Card>
        <Card id="legacy-person" title={texts.person}>
          <p>
            <a href={nationalId.minorLink.href}>{nationalId.minorLink.label}</a>
          </p>
          <div className={`field${nationalId.error ? ' field--error' : ''}`}>
            <label htmlFor="legacy-nationalId">{nationalId.label}</label>
            <p id="legacy-nationalId-hint" className="field__hint">
              {nationalId.hint}
            </p>
            <FieldError id="legacy-nationalId" error={nationalId.error} />
            {/* From the eID: shown, not editable. */}
            <input
              id="legacy-nationalId"
              type="text"
              value={nationalId.value}
              readOnly
              aria-describedby={['legacy-nationalId-hint', nationalId.error ? 'legacy-nationalId-error' : ''].filter(Boolean).join(' ')}
            />
          </div>
          {props.text
            .filter((f) => f.section === 'person')
            .map((f) => (
              <TextField key={f.id} field={f} />
            ))}
        </Card>
        <Card id="legacy-contact" title={texts.contact}>
          {props.text
            .filter((f) => f.section === 'contact')
            .map((f) => (
              <TextField key={f.id} field={f} />
            ))}
        </Card>
        <Island name="legacyForm" component={LegacyKycAnswers} props={kycAnswers} />
        <button type="submit" className="btn" name="intent" value="sign">
          {texts.sign}
        </button>
      </form>
      {dialogs.map((d) => (
        <ModalDialog key={d.props.id} {...d.props} />
      ))}
    </section>
  );
}
