// The five identification error screens (identification-routing-creation §2 "Identification error screens").
import type { Translate } from '../../shared/i18n.ts';
import type { IdentificationError } from '../../shared/routing.ts';
import { CsrfField } from '../components/CsrfField.tsx';

export interface ErrorAction {
  label: string;
  /** A link (external form, login) or a form post (try again, continue as minor). */
  href?: string;
  post?: { action: string; name: string; value: string };
}

/**
 * Framed as an error only where something went wrong. Having an account already (log in instead) and being a
 * minor (the minor's way on) are information, not failures.
 */
export const informationalErrors: ReadonlySet<IdentificationError> = new Set(['LOGIN_ERROR', 'MINOR_ERROR']);

export function IdentificationErrorPage({ t, error, action }: { t: Translate; error: IdentificationError; action: ErrorAction | null }) {
  return (
    <section className={`result ${informationalErrors.has(error) ? 'result--info' : 'result--error'}`} aria-labelledby="error-title">
      <h1 id="error-title">{t(`identificationError.${error}.title`)}</h1>
      <p>{t(`identificationError.${error}.text`)}</p>
      {action?.href && (
        <p>
          <a className="btn" href={action.href}>
            {action.label}
          </a>
        </p>
      )}
      {action?.post && (
        <form method="post" action={action.post.action}>
          <CsrfField />
          <button className="btn" type="submit" name={action.post.name} value={action.post.value}>
            {action.label}
          </button>
        </form>
      )}
    </section>
  );
}

/** A country without an identification method in this product (identification-routing-creation §2: "not implemented"). */
export function NotImplementedPage({ t }: { t: Translate }) {
  return (
    <section className="result" aria-labelledby="not-implemented-title">
      <h1 id="not-implemented-title">{t('identification.notImplemented.title')}</h1>
      <p>{t('identification.notImplemented.text')}</p>
    </section>
  );
}
