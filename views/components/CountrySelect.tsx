// Country multi-select of the citizenship and tax information steps (customer-information §2.3, the `countries`
// screen of each): the countrySelect island. The server renders every country as a checkbox (the no-JS form); hydrated,
// a search box filters the list and ticked countries move to a "Chosen" list on top. For the tax step, `serverSearch`
// gives the no-JS form a search posted to the server and `confirm` opens a modal (the FATCA dialog for the US) instead of
// posting. More: docs/islands.md.
import { useState } from 'react';
import { useHydrated } from '../../client/components/useHydrated.ts';
import { matchesCountrySearch } from '../../shared/countries.ts';
import { useConfirmThenSubmit } from '../../client/components/useConfirmThenSubmit.ts';
import { QuestionFieldset } from './QuestionFieldset.tsx';
import { CsrfField } from './CsrfField.tsx';

interface Field {
  name: string;
  value: string;
}

export interface CountrySelectProps {
  action: string;
  /** Hidden fields posted with the form (at least `step`). */
  fields: Record<string, string>;
  legend: string;
  options: { value: string; label: string }[];
  chosen: string[];
  labels: { search: string; noResults: string; chosen: string; countries: string; continue: string };
  error: string | null;
  /** Continue's own name and value, posted when it submits the form. */
  submit?: Field | null;
  serverSearch?: { name: string; query: string; button: Field & { label: string } } | null;
  confirm?: { dialogId: string; countries: string[]; field: Field } | null;
}

export function CountrySelect({ action, fields, legend, options, labels, error, submit, serverSearch, confirm, ...props }: CountrySelectProps) {
  const [chosen, setChosen] = useState<string[]>(props.chosen);
  const [query, setQuery] = useState(serverSearch?.query ?? '');
  // The confirmation is asked with the one shared hook (a dialog id that never opens when there is none).
  const { form, confirmed, askFirst } = useConfirmThenSubmit(confirm?.dialogId ?? '', { confirmOn: 'primary' });
  // The live search, the disabled Continue and the confirmation modal only make sense once this island runs.
  const enhanced = useHydrated();

  const byValue = new Map(options.map((o) => [o.value, o]));
  const chosenOptions = chosen.map((c) => byValue.get(c)).filter((o) => o !== undefined);
  const rest = options.filter((o) => !chosen.includes(o.value) && matchesCountrySearch(o.label, query));
  const toggle = (value: string, on: boolean) => setChosen((list) => (on ? [...list.filter((v) => v !== value), value] : list.filter((v) => v !== value)));

  const box = (o: { value: string; label: string }, checked: boolean) => (
    <li key={o.value}>
      <input
        type="checkbox"
        id={`country-${o.value}`}
        name="countries"
        value={o.value}
        checked={checked}
        onChange={(e) => toggle(o.value, e.currentTarget.checked)}
      />
      <label htmlFor={`country-${o.value}`}>{o.label}</label>
    </li>
  );

  return (
    <form
      ref={form}
      method="post"
      action={action}
      noValidate
      className="country-select"
      onSubmit={(e) => askFirst(e, confirm ? chosen.some((c) => confirm.countries.includes(c)) : false)}
    >
      <CsrfField />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {confirm && confirmed && <input type="hidden" name={confirm.field.name} value={confirm.field.value} />}
      <QuestionFieldset id="country-select" legend={legend} error={error}>
        <div className="field search-row" hidden={!enhanced && !serverSearch}>
          <label htmlFor="country-search">{labels.search}</label>
          <input
            type="search"
            id="country-search"
            name={serverSearch?.name}
            value={query}
            autoComplete="off"
            maxLength={60}
            onChange={(e) => setQuery(e.currentTarget.value)}
            // The list filters as you type: Enter must not post the form.
            onKeyDown={(e) => {
              if (e.key === 'Enter') e.preventDefault();
            }}
          />
          {serverSearch && (
            <button type="submit" name={serverSearch.button.name} value={serverSearch.button.value} className="btn btn-secondary" hidden={enhanced}>
              {serverSearch.button.label}
            </button>
          )}
        </div>
        {chosenOptions.length > 0 && (
          <>
            <h2 className="country-select__heading">{labels.chosen}</h2>
            <ul className="country-select__list" aria-label={labels.chosen}>
              {chosenOptions.map((o) => box(o, true))}
            </ul>
          </>
        )}
        <h2 className="country-select__heading">{labels.countries}</h2>
        {rest.length === 0 ? (
          <p role="status">{labels.noResults}</p>
        ) : (
          <ul className="country-select__list country-select__list--all" aria-label={labels.countries}>
            {rest.map((o) => box(o, false))}
          </ul>
        )}
      </QuestionFieldset>
      <button type="submit" className="btn" name={submit?.name} value={submit?.value} disabled={enhanced && chosen.length === 0}>
        {labels.continue}
      </button>
    </form>
  );
}
