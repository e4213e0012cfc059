import type { Request } from 'express';
import { ApiError } from '../errors.js';
import { tagSet } from '../domain/link-options.js';
import type { FieldErrors } from '../views/forms.js';
import type { Link } from '../tools/schemas.js';
import { faultsBesideFields } from './link-field-faults.js';
import { text } from './request.js';
import { UTM_FIELDS, type OptionValues, type UtmValues } from '../views/link-options-fields.js';

/** The option fields a tool's fault may name (`tags[2]` is shown beside `tags`: see fieldOnForm). */
export const OPTION_FIELDS = ['expiresAt', 'maxClicks', 'password', 'tags', 'forwardQuery'] as const;

/** A new link's fields: no end, no cap, no tags, the query string passed on (createLink's defaults). */
export const NEW_LINK_OPTION_VALUES: OptionValues = { expiresAt: '', maxClicks: '', tags: '', forwardQuery: 'yes', removePassword: '' };

const ticked = (req: Request, name: string): 'yes' | '' => (text(req, name) === '' ? '' : 'yes');

export function optionValuesOf(req: Request): OptionValues {
  return {
    expiresAt: text(req, 'expiresAt').trim(),
    maxClicks: text(req, 'maxClicks').trim(),
    tags: text(req, 'tags'),
    forwardQuery: ticked(req, 'forwardQuery'),
    removePassword: ticked(req, 'removePassword'),
  };
}

export function utmValuesOf(req: Request): UtmValues {
  return Object.fromEntries(UTM_FIELDS.map((field) => [field, text(req, field)])) as UtmValues;
}

/** A link's options as its edit form shows them: the end as the date picker takes it (UTC), tags as "a, b". */
export function optionValuesOfLink(link: Link): OptionValues {
  return {
    expiresAt: link.expiresAt === null ? '' : pickerValue(link.expiresAt),
    maxClicks: link.maxClicks === null ? '' : String(link.maxClicks),
    tags: link.tags.join(', '),
    forwardQuery: link.forwardQuery ? 'yes' : '',
    removePassword: '',
  };
}

/** `2027-01-31T18:00:00.000Z` as a datetime-local value: to the minute, or with the seconds when it has any. */
function pickerValue(iso: string): string {
  return iso.slice(16, 23) === ':00.000' ? iso.slice(0, 16) : iso.slice(0, 23);
}

const PICKED = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(:\d{2}(?:\.\d{1,3})?)?$/;

/**
 * The date picker's value (`2027-01-31T18:00`, a time in UTC) as the RFC 3339 date-time the tools take
 * (`2027-01-31T18:00:00Z`); empty for none. Anything else goes to the tool as typed, which refuses it in its words.
 */
export function expiresAtOf(value: string): string | null {
  if (value === '') return null;
  const parts = PICKED.exec(value);
  return parts ? `${parts[1]}T${parts[2]}${parts[3] ?? ':00'}Z` : value;
}

/**
 * The click cap's field as a number; empty for none. Text that is no number at all goes as 0, which the tool
 * refuses with its own message (a number field of a browser sends none).
 */
export function maxClicksOf(value: string): number | null {
  if (value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : 0;
}

/** The tags field, separated by commas or spaces, each as typed (the tool refuses what is not lowercase). */
export function tagsOf(value: string): string[] {
  return value.split(/[\s,]+/).filter((tag) => tag !== '');
}

/** What every options form sends whatever the password: the end, the cap, the tags, whether the query goes on. */
export function optionParamsOf(values: OptionValues) {
  return {
    expiresAt: expiresAtOf(values.expiresAt),
    maxClicks: maxClicksOf(values.maxClicks),
    tags: tagsOf(values.tags),
    forwardQuery: values.forwardQuery === 'yes',
  };
}

/** The form field a tool's fault belongs beside: a tag's (`tags[2]`) beside the one tags field. */
export function fieldOnForm(field: string | null): string | null {
  return field !== null && /^tags\[\d+\]$/.test(field) ? 'tags' : field;
}

const onFormField = (f: ApiError) => (fieldOnForm(f.field) === f.field ? f : new ApiError(f.code, f.detail, fieldOnForm(f.field), f.retryAfter));

/**
 * A tool's refusal of a form with link options, and the other faults its checks found (faultsOf), as the form shows
 * them: each beside its field (faultsBesideFields, a tag's beside the tags field), and the refusal above the form
 * when it names none of `fields` (a flagged link, a limit).
 */
export function optionFormFaults(refusal: ApiError, faults: readonly ApiError[], fields: readonly string[]): { errors: FieldErrors; alert?: string } {
  const errors = faultsBesideFields(onFormField(refusal), faults.map(onFormField));
  const field = fieldOnForm(refusal.field);
  return field !== null && fields.includes(field) ? { errors } : { errors, alert: refusal.detail };
}

/** The same moment, or both none (a date-time the tool would refuse is never the same). */
function sameInstant(a: string | null, b: string | null): boolean {
  return a === null || b === null ? a === b : Date.parse(a) === Date.parse(b);
}

/**
 * What the edit page's options form changes, for setLinkOptions: only the options whose value differs from the
 * link's (a link past its end keeps that end without the tool refusing it as past). The password: one typed sets it,
 * else "Remove the password" clears it, else it is left out and stays.
 */
export function optionChangesOf(link: Link, values: OptionValues, password: string) {
  const sent = optionParamsOf(values);
  const changes: { expiresAt?: string | null; maxClicks?: number | null; password?: string | null; tags?: string[]; forwardQuery?: boolean } = {};
  if (!sameInstant(sent.expiresAt, link.expiresAt)) changes.expiresAt = sent.expiresAt;
  if (sent.maxClicks !== link.maxClicks) changes.maxClicks = sent.maxClicks;
  if (password !== '') changes.password = password;
  else if (values.removePassword === 'yes' && link.hasPassword) changes.password = null;
  if (tagSet(sent.tags).join(' ') !== link.tags.join(' ')) changes.tags = sent.tags;
  if (sent.forwardQuery !== link.forwardQuery) changes.forwardQuery = sent.forwardQuery;
  return changes;
}
