import { escapeHtml } from './layout.js';

/** Markup that is already safe to send. Only `html` and `raw` make one. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Value = Html | string | number | null | undefined | false | readonly Value[];

function render(value: Value): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/**
 * A template whose every interpolated value is escaped, unless it is itself `Html`: pages are built only with
 * this, so no shown value can slip through unescaped. Arrays are joined; null, undefined and false render nothing.
 */
export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return new Html(out);
}

/** Trusted markup, such as a constant. Never for anything a person or the store supplied. */
export function raw(text: string): Html {
  return new Html(text);
}

/** A time as people read it (`2026-11-21 12:00 UTC`, or just the day), in a machine-readable `<time>`. */
export function when(iso: string | null, options: { never?: string; dayOnly?: boolean } = {}): Html {
  if (iso === null) return html`${options.never ?? 'never'}`;
  const full = `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
  return options.dayOnly
    ? html`<time datetime="${iso}" title="${full}">${iso.slice(0, 10)}</time>`
    : html`<time datetime="${iso}">${full}</time>`;
}

