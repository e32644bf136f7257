// Minimal HTML rendering for the sandbox's stand-in pages (test BankID app, signing, overview).
// Plain server-rendered markup: no scripts, one h1 per page, English, everything escaped.

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escape text for element content and double-quoted attribute values. */
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => escapes[c] ?? c);

/** Tagged template that escapes every interpolated value unless it is already rendered Html. */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Interpolation = string | number | Html | Array<string | number | Html> | null | undefined | false;

export function html(strings: TemplateStringsArray, ...values: Interpolation[]): Html {
  const render = (v: Interpolation): string => {
    if (v === null || v === undefined || v === false) return '';
    if (Array.isArray(v)) return v.map(render).join('');
    if (v instanceof Html) return v.value;
    return escapeHtml(String(v));
  };
  return new Html(strings.reduce((out, s, i) => out + s + (i < values.length ? render(values[i]) : ''), ''));
}

/** A complete page with a single h1 inside main. */
export function page(title: string, body: Html): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} – Sandbox</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 40rem; padding: 0 1rem; line-height: 1.5; overflow-wrap: anywhere; }
  section { border: 1px solid #767676; border-radius: 0.5rem; padding: 1rem; margin-block: 1rem; }
  label { display: block; font-weight: 600; }
  /* Fits a 360 px phone: a long persona option or order reference wraps instead of widening the page. */
  select, button { font: inherit; margin-block: 0.25rem; max-width: 100%; }
  select { width: 100%; }
  button { margin-inline-end: 0.5rem; }
</style>
</head>
<body>
<main>
<h1>${title}</h1>
${body}
</main>
</body>
</html>
`.value;
}
