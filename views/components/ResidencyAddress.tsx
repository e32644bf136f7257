// The residency step's address form (customer-information.md §2.3 "Residency") and the residencyDialog island: the
// step's `dialog` screen, the RESIDENCY compliance dialog on entering (§4.7). The server renders the dialog as the screen
// with the address form hidden behind it; hydrated, the form shows with the modal on top, and the island posts the
// dialog's answer in the background so a reload or Back does not open it again. Posting the address waits for that
// answer, so the server takes the post as the `address` screen's.
import { useEffect, useRef, type FormEvent, type RefObject } from 'react';
import type { CountryOption } from '../../shared/countries.ts';
import type { AddressField } from '../../shared/residency.ts';
import { CSRF_FIELD, readCsrfToken } from '../../client/components/csrfToken.ts';
import { openDialog } from '../../client/components/dialogEvents.ts';
import { useDialogClose } from '../../client/components/useDialogClose.ts';
import { useHydrated } from '../../client/components/useHydrated.ts';
import { Dialog, type DialogAction, type DialogProps } from './Dialog.tsx';
import { ErrorSummary, Field } from './ErrorSummary.tsx';
import { ScreenFields, type ScreenFieldValues } from './ScreenForm.tsx';

/** A form of the step: where it posts and its hidden step and screen fields. */
export interface ScreenForm {
  action: string;
  fields: ScreenFieldValues;
}

export interface AddressTexts {
  title: string;
  text: string;
  country: string;
  countryChoose: string;
  address: string;
  zipCode: string;
  city: string;
  continue: string;
  /** form.error.summary */
  errorSummary: string;
}

/** The address form's props (plain JSON: they travel in the island's data-props). */
export interface AddressFormData extends ScreenForm {
  texts: AddressTexts;
  /** The longest answer each text field takes (shared/residency.ts RESIDENCY_LIMITS, given rather than imported: its
   * module brings the brokerage contract's schemas, which the browser does not need). */
  limits: Record<'address' | 'zipCode' | 'city', number>;
  options: CountryOption[];
  values: Partial<Record<AddressField, string>>;
  errors?: Partial<Record<AddressField, string>>;
}

const fieldId = (field: string) => `residency-${field}`;
const ADDRESS_TITLE_ID = 'residency-address-title';
/** The no-JS dialog screen and the address form behind it, swapped once the island has hydrated. */
const RESIDENCY_SCREEN_ID = 'residency-dialog-screen';
const RESIDENCY_ADDRESS_ID = 'residency-address-step';
/** The modal is another island, which may hydrate after this one: asked again this often, this many times. */
const OPEN_RETRY_MS = 50;
const OPEN_TRIES = 100;

export function AddressForm({
  texts,
  limits,
  action,
  fields,
  options,
  values,
  errors = {},
  titleRef,
  onSubmit,
}: AddressFormData & { titleRef?: RefObject<HTMLHeadingElement | null>; onSubmit?: (e: FormEvent<HTMLFormElement>) => void }) {
  const text = (field: 'address' | 'zipCode' | 'city', autoComplete: string) => (
    <Field id={fieldId(field)} label={texts[field]} error={errors[field]}>
      {(described) => (
        <input
          type="text"
          id={fieldId(field)}
          name={field}
          defaultValue={values[field] ?? ''}
          autoComplete={autoComplete}
          maxLength={limits[field]}
          required
          {...described}
        />
      )}
    </Field>
  );
  const listed = (['addressCountry', 'address', 'zipCode', 'city'] as const).filter((f) => errors[f]).map((f) => [fieldId(f), errors[f]!] as const);
  return (
    <section aria-labelledby={ADDRESS_TITLE_ID}>
      <h1 ref={titleRef} id={ADDRESS_TITLE_ID} tabIndex={-1}>
        {texts.title}
      </h1>
      <p>{texts.text}</p>
      <ErrorSummary title={texts.errorSummary} errors={listed} />
      <form method="post" action={action} noValidate onSubmit={onSubmit}>
        <ScreenFields fields={fields} />
        <Field id={fieldId('addressCountry')} label={texts.country} error={errors.addressCountry}>
          {(described) => (
            <select
              id={fieldId('addressCountry')}
              name="addressCountry"
              defaultValue={values.addressCountry ?? ''}
              autoComplete="country"
              required
              {...described}
            >
              <option value="">{texts.countryChoose}</option>
              {options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        {/* One line for the street: address-line1 (street-address is for a multi-line control, WHATWG HTML autofill). */}
        {text('address', 'address-line1')}
        {text('zipCode', 'postal-code')}
        {text('city', 'address-level2')}
        <button type="submit" className="btn">
          {texts.continue}
        </button>
      </form>
    </section>
  );
}

/** The residencyDialog island's props. */
export interface ResidencyGateProps {
  /** The dialog as the screen (without JavaScript). */
  screen: DialogProps;
  /** The modal's id, and what its primary action posts. */
  dialogId: string;
  primary: DialogAction;
  address: AddressFormData;
}

export function ResidencyGate({ screen, dialogId, primary, address }: ResidencyGateProps) {
  const hydrated = useHydrated();
  const title = useRef<HTMLHeadingElement>(null);
  // The dialog's answer, posted once: the same post as the screen's Continue. If it fails, the server still shows
  // the dialog (the address post is then refused as stale, and the page shows it again).
  const answered = useRef<Promise<void> | null>(null);
  const posting = useRef(false);
  const answer = (): Promise<void> => {
    if (!('action' in primary)) return Promise.resolve();
    const csrfToken = readCsrfToken();
    // The token as the form's own post carries it (server/csrfProtection.ts), for browsers that send no Origin.
    const body = new URLSearchParams({ ...primary.fields, ...(csrfToken ? { [CSRF_FIELD]: csrfToken } : {}) });
    answered.current ??= fetch(primary.action, { method: 'POST', body, redirect: 'manual', keepalive: true }).then(
      () => undefined,
      () => undefined,
    );
    return answered.current;
  };

  // Entering the step opens the dialog as a modal over the address form.
  useEffect(() => {
    let tries = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const open = () => {
      if (openDialog(dialogId) || ++tries >= OPEN_TRIES) return;
      timer = setTimeout(open, OPEN_RETRY_MS);
    };
    open();
    return () => clearTimeout(timer);
  }, [dialogId]);

  useDialogClose(dialogId, (result) => {
    title.current?.focus();
    if (result === 'primary') void answer();
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (posting.current) return;
    posting.current = true;
    const form = event.currentTarget;
    // submit() fires no submit event: this handler does not run again.
    void answer().then(() => form.submit());
  };

  return (
    <>
      <div id={RESIDENCY_SCREEN_ID} hidden={hydrated}>
        <Dialog {...screen} />
      </div>
      <div id={RESIDENCY_ADDRESS_ID} hidden={!hydrated}>
        <AddressForm {...address} titleRef={title} onSubmit={onSubmit} />
      </div>
    </>
  );
}
