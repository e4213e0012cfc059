import { MAX_CLICKS_CAP, MAX_EXPIRY_YEARS, PASSWORD_MAX, PASSWORD_MIN, TAG_MAX_LENGTH, TAGS_MAX } from '../shared/field-lengths.js';
import { checkbox, textField, type FieldErrors, type TextField } from './forms.js';
import { html, when, type Html } from './html.js';

/**
 * The link options' fields of a form (the dashboard's make form, the edit page's options form) as typed, the
 * password left out: it is never shown again. The checkboxes are 'yes' when ticked, '' when not (a browser sends
 * nothing for a box left unticked).
 */
export interface OptionValues {
  expiresAt: string;
  maxClicks: string;
  tags: string;
  forwardQuery: 'yes' | '';
  removePassword: 'yes' | '';
}

/** The UTM builder's parameters, in the order the form shows them. */
export const UTM_FIELDS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;
export type UtmField = (typeof UTM_FIELDS)[number];
export type UtmValues = Record<UtmField, string>;

/** The UTM builder empty, as a form first shows it. */
export const NO_UTM: UtmValues = Object.freeze(Object.fromEntries(UTM_FIELDS.map((field) => [field, ''])) as UtmValues);

const UTM_LABELS: Record<UtmField, string> = {
  utm_source: 'Source (utm_source)',
  utm_medium: 'Medium (utm_medium)',
  utm_campaign: 'Campaign (utm_campaign)',
  utm_term: 'Term (utm_term)',
  utm_content: 'Content (utm_content)',
};

/**
 * The date picker and the number field are textFields of another type: their label, hint, message and
 * aria-describedby are a text field's. Styled here as the layout styles text fields.
 */
const OPTION_STYLE = html`<style>.options input[type=number], .options input[type=datetime-local] { font: inherit; width: 100%; max-width: 28rem; padding: .45rem .55rem; border: 1px solid var(--field); border-radius: 4px; background: var(--field-bg); color: inherit; } .options input[aria-invalid=true] { border: 2px solid var(--bad); } details.options > summary, details.utm > summary { cursor: pointer; font-weight: 600; margin-bottom: .75rem; }</style>`;

const typed = (type: string) => type as TextField['type'];

/** The password's fields: a new one for a link without, else "has a password", Remove and a field for another. */
function passwordFields(values: OptionValues, errors: FieldErrors, hasPassword: boolean): Html {
  const rule = `${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`;
  if (!hasPassword) {
    return textField({ name: 'password', label: 'Password (optional)', type: 'password', autocomplete: 'new-password', error: errors.password, hint: `Visitors must give it before they are sent on: ${rule}`});
  }
  return html`<p>This link has a password.</p>
${checkbox({ name: 'removePassword', value: 'yes', label: 'Remove the password', checked: values.removePassword === 'yes' })}
${textField({ name: 'password', label: 'New password (optional)', type: 'password', autocomplete: 'new-password', error: errors.password, hint: `${rule} Empty keeps the current one.`})}`;
}

/**
 * A link's options as form fields, each labelled, with its hint and its fault beside it: when the link ends (a date
 * picker in UTC), its click cap, its password (never shown again), its tags and whether a visitor's query string is
 * passed on. `hasPassword`: the link being edited has one.
 */
export function linkOptionsFields(values: OptionValues, errors: FieldErrors, hasPassword = false): Html {
  return html`${OPTION_STYLE}<div class="options">
<div class="row">
${textField({ name: 'expiresAt', label: 'Ends (UTC, optional)', type: typed('datetime-local'), value: values.expiresAt, error: errors.expiresAt, hint: `A date and time in UTC, at most ${MAX_EXPIRY_YEARS} years ahead; visitors then find the link ended. Empty: never.` })}
${textField({ name: 'maxClicks', label: 'Click cap (optional)', type: typed('number'), value: values.maxClicks, error: errors.maxClicks, hint: `Ends the link after this many clicks, 1 to ${MAX_CLICKS_CAP.toLocaleString('en-US')}. Empty: no cap.` })}
</div>
${passwordFields(values, errors, hasPassword)}
${textField({ name: 'tags', label: 'Tags (optional)', value: values.tags, error: errors.tags, hint: `Up to ${TAGS_MAX}, separated by commas or spaces; each 1 to ${TAG_MAX_LENGTH} of a-z, 0-9, - and _.` })}
${checkbox({ name: 'forwardQuery', value: 'yes', label: "Pass the visitor's query string on", checked: values.forwardQuery === 'yes', error: errors.forwardQuery })}
</div>`;
}

/** Whether the options' part of a form holds anything but a new link's defaults, or a fault: then it shows open. */
export function optionsTouched(values: OptionValues, errors: FieldErrors, passwordTyped: boolean): boolean {
  const faulted = ['expiresAt', 'maxClicks', 'password', 'tags', 'forwardQuery'].some((field) => errors[field] !== undefined);
  return faulted || passwordTyped || values.expiresAt !== '' || values.maxClicks !== '' || values.tags.trim() !== '' || values.forwardQuery !== 'yes';
}

/**
 * The UTM builder's fields: five optional ones whose filled ones the server adds to the destination's query
 * (web/utm.ts), so it works without scripts.
 */
export function utmInputs(values: UtmValues = NO_UTM): Html {
  return html`<p class="hint">Each one filled is added to the destination's address (replacing a parameter of the same name there).</p>
<div class="row">
${UTM_FIELDS.map((field) => textField({ name: field, label: UTM_LABELS[field], value: values[field], maxlength: 200 }))}
</div>`;
}

/** The UTM builder as a disclosure of a form, open when any field is filled. */
export function utmFields(values: UtmValues = NO_UTM): Html {
  const open = UTM_FIELDS.some((field) => values[field].trim() !== '') ? html` open` : html``;
  return html`<details class="utm"${open}><summary>Campaign tracking (UTM)</summary>
${utmInputs(values)}
</details>`;
}

/** A link's options as the link's page shows them, rows of its `dl.facts`. */
export function linkOptionFacts(link: {
  expiresAt: string | null;
  maxClicks: number | null;
  hasPassword: boolean;
  tags: readonly string[];
  forwardQuery: boolean;
}): Html {
  const none = (word: string) => html`<span class="muted">${word}</span>`;
  return html`<div><dt>Ends</dt><dd>${link.expiresAt === null ? none('never') : when(link.expiresAt)}</dd></div>
<div><dt>Click cap</dt><dd>${link.maxClicks === null ? none('none') : `${link.maxClicks.toLocaleString('en-US')} clicks`}</dd></div>
<div><dt>Password</dt><dd>${link.hasPassword ? 'Protected by a password' : none('none')}</dd></div>
<div><dt>Tags</dt><dd>${link.tags.length === 0 ? none('none') : tagList(link.tags)}</dd></div>
<div><dt>Query string</dt><dd>${link.forwardQuery ? "The visitor's query string is passed on to the destination" : 'Not passed on'}</dd></div>`;
}

/** A link's tags as text: "fair, spring". */
export function tagList(tags: readonly string[]): string {
  return tags.join(', ');
}
