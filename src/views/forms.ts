import { html, type Html } from './html.js';

/** Messages beside fields, by field name. */
export type FieldErrors = Partial<Record<string, string>>;

/** The hidden field every POST form carries. */
export function csrfField(token: string): Html {
  return html`<input type="hidden" name="_csrf" value="${token}">`;
}

function describedBy(id: string, hint: string | undefined, error: string | undefined): Html {
  const ids = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return ids ? html` aria-describedby="${ids}"` : html``;
}

function errorOf(id: string, error: string | undefined): Html {
  return error ? html`<p class="error" id="${id}-error">${error}</p>` : html``;
}

function hintOf(id: string, hint: string | undefined): Html {
  return hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : html``;
}

export interface TextField {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'password' | 'url';
  value?: string;
  error?: string | undefined;
  hint?: string;
  required?: boolean;
  autocomplete?: string;
  maxlength?: number;
  /** Distinguishes fields of the same name in several forms on one page. */
  idPrefix?: string;
}

/** A labelled input with its hint and, when the last answer found fault with it, the message right beside it. */
export function textField(f: TextField): Html {
  const id = `${f.idPrefix ?? 'f'}-${f.name}`;
  return html`<div class="field">
  <label for="${id}">${f.label}</label>${hintOf(id, f.hint)}
  <input id="${id}" name="${f.name}" type="${f.type ?? 'text'}" value="${f.type === 'password' ? '' : (f.value ?? '')}"${
    f.required ? html` required` : html``
  }${f.autocomplete ? html` autocomplete="${f.autocomplete}"` : html``}${
    f.maxlength ? html` maxlength="${f.maxlength}"` : html``
  }${f.error ? html` aria-invalid="true"` : html``}${describedBy(id, f.hint, f.error)}>
  ${errorOf(id, f.error)}
</div>`;
}

export function selectField(f: {
  name: string;
  label: string;
  options: Array<{ value: string; label: string }>;
  selected?: string;
  error?: string | undefined;
  /** As for textField: fields of one name in several forms on one page. */
  idPrefix?: string;
}): Html {
  const id = `${f.idPrefix ?? 'f'}-${f.name}`;
  const options = f.options.map(
    (o) => html`<option value="${o.value}"${o.value === f.selected ? html` selected` : html``}>${o.label}</option>`,
  );
  return html`<div class="field">
  <label for="${id}">${f.label}</label>
  <select id="${id}" name="${f.name}"${f.error ? html` aria-invalid="true"` : html``}${describedBy(id, undefined, f.error)}>${options}</select>
  ${errorOf(id, f.error)}
</div>`;
}

/** One checkbox with its label after it. */
export function checkbox(f: { name: string; value: string; label: string | Html; checked?: boolean; id?: string; error?: string | undefined }): Html {
  const id = f.id ?? `f-${f.name}`;
  return html`<div class="check-field"><label class="check" for="${id}"><input type="checkbox" id="${id}" name="${f.name}" value="${f.value}"${
    f.checked ? html` checked` : html``
  }${f.error ? html` aria-invalid="true"` : html``}${describedBy(id, undefined, f.error)}> <span>${f.label}</span></label>${errorOf(id, f.error)}</div>`;
}

/** What a form carries besides what the person types: the record it acts on. */
function hiddenFields(fields: Record<string, string> = {}): Html[] {
  return Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
}

/**
 * The end of a page that asks before a change that cannot be taken back: the one form that makes it, its button
 * naming it, and beside it the way back, which changes nothing.
 */
export function confirmForm(f: { action: string; csrf: string; confirm: string; keep: { href: string; label: string }; hidden?: Record<string, string> }): Html {
  return html`<form method="post" action="${f.action}">${csrfField(f.csrf)}${hiddenFields(f.hidden)}
<button type="submit" class="danger">${f.confirm}</button>
<a href="${f.keep.href}" style="margin-left:1rem">${f.keep.label}</a>
</form>`;
}

/** A form that is just a button (delete, revoke, leave, sign out), with hidden fields. */
export function buttonForm(f: {
  action: string;
  csrf: string;
  label: string;
  hidden?: Record<string, string>;
  className?: string;
  ariaLabel?: string;
}): Html {
  return html`<form class="inline" method="post" action="${f.action}">${csrfField(f.csrf)}${hiddenFields(f.hidden)}<button type="submit"${
    f.className ? html` class="${f.className}"` : html``
  }${f.ariaLabel ? html` aria-label="${f.ariaLabel}"` : html``}>${f.label}</button></form>`;
}

/** A message about the whole form or page, announced to screen readers. */
export function alertBox(message: string | undefined): Html {
  return message ? html`<p class="alert" role="alert">${message}</p>` : html``;
}

export function noticeBox(message: string | undefined): Html {
  return message ? html`<p class="notice" role="status">${message}</p>` : html``;
}

/** A labelled multi-line field (pasted lists), with its hint and its message, as textField. */
export function textAreaField(f: { name: string; label: string; value?: string; error?: string | undefined; hint?: string; rows?: number }): Html {
  const id = `f-${f.name}`;
  return html`<div class="field">
  <label for="${id}">${f.label}</label>${hintOf(id, f.hint)}
  <textarea id="${id}" name="${f.name}" rows="${f.rows ?? 8}" spellcheck="false" autocapitalize="off"${
    f.error ? html` aria-invalid="true"` : html``
  }${describedBy(id, f.hint, f.error)}>${f.value ?? ''}</textarea>
  ${errorOf(id, f.error)}
</div>`;
}
