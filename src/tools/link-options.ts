import { z } from 'zod';
import {
  checkExpiresAt,
  checkMaxClicks,
  checkPassword,
  checkTags,
  MAX_CLICKS_CAP,
  MAX_EXPIRY_YEARS,
  PASSWORD_MAX,
  PASSWORD_MIN,
  TAG_MAX_LENGTH,
  TAGS_MAX,
} from '../domain/link-options.js';
import type { LinkOptions } from '../store/ports.js';
import { hashPassword, verifyPassword } from '../support/password.js';
import type { ToolContext } from './define-tool.js';
import { FAULT, type Faults } from './faults.js';

/**
 * A link's options as params (domain/link-options.ts): shapes only, as every input schema (schemas.ts); the rules
 * are the domain's, each with its own code. createLink and createLinks items take them with defaults that mean a
 * plain link; setLinkOptions takes any of them, null clearing expiresAt, maxClicks and password.
 */
const optionParams = {
  expiresAt: z.string().nullable().meta({
    description: `When the link ends (visitors then get 410): a date-time with its offset, in the future and at most ${MAX_EXPIRY_YEARS} years ahead; null for never.`,
    format: 'date-time',
  }),
  maxClicks: z.number().nullable().meta({
    description: `The link ends after this many counted clicks (visits by people, not bots): a whole number from 1 to ${MAX_CLICKS_CAP.toLocaleString('en-US')}; null for no cap.`,
    minimum: 1,
    maximum: MAX_CLICKS_CAP,
  }),
  password: z.string().nullable().meta({
    description: `Visitors must give this password before they are sent on: ${PASSWORD_MIN} to ${PASSWORD_MAX} characters, stored only as a slow hash and never returned; null for none.`,
    minLength: PASSWORD_MIN,
    maxLength: PASSWORD_MAX,
  }),
  tags: z.array(z.string()).meta({
    // No maxItems: a tag sent twice is one tag, so more items than TAGS_MAX may still be that many tags.
    description: `At most ${TAGS_MAX} tags, each 1 to ${TAG_MAX_LENGTH} of a-z 0-9 - _ ; kept sorted, each once (a tag sent twice is one).`,
  }),
  forwardQuery: z.boolean().meta({
    description: "Whether a visitor's query string is added to the destination's (the destination's own parameters win a clash).",
  }),
};

/** createLink's and each createLinks item's options: a new link forwards the query string unless told not to. */
export const newLinkOptionParams = {
  expiresAt: optionParams.expiresAt.default(null),
  maxClicks: optionParams.maxClicks.default(null),
  password: optionParams.password.default(null),
  tags: optionParams.tags.default([]),
  forwardQuery: optionParams.forwardQuery.default(true),
};

/** setLinkOptions' params: any of the options; one left out stays as it is. */
export const optionChangeParams = {
  expiresAt: optionParams.expiresAt.optional(),
  maxClicks: optionParams.maxClicks.optional(),
  password: optionParams.password.optional(),
  tags: optionParams.tags.optional(),
  forwardQuery: optionParams.forwardQuery.optional(),
};

/** The options as sent: the password in clear, each left out (setLinkOptions) or given. */
export interface SentOptions {
  expiresAt?: string | null;
  maxClicks?: number | null;
  password?: string | null;
  tags?: string[];
  forwardQuery?: boolean;
}

/**
 * The options' rules, each fault under its field (`prefix` names a createLinks item's: `links[3].`); the options
 * as stored, those left out left out, or FAULT. The password is hashed only once every option passed (a slow hash
 * is not spent on a call that fails).
 */
export async function checkLinkOptions(
  ctx: ToolContext,
  faults: Faults,
  sent: SentOptions,
  prefix = '',
  /** The link's password hash now (setLinkOptions): the same password sent again keeps it, and changes nothing. */
  currentHash: string | null = null,
): Promise<Partial<LinkOptions> | typeof FAULT> {
  const now = ctx.clock.now();
  const options: Partial<LinkOptions> = {};
  let failed = false;
  /** Checks the option at `field` when it was sent; notes a fault. */
  const check = async <T>(field: keyof SentOptions, rule: (name: string) => T): Promise<T | undefined> => {
    if (sent[field] === undefined) return undefined;
    const checked = await faults.check(`${prefix}${field}`, () => rule(`${prefix}${field}`));
    if (checked !== FAULT) return checked;
    failed = true;
    return undefined;
  };
  const expiresAt = await check('expiresAt', (field) => checkExpiresAt(sent.expiresAt!, now, field));
  if (expiresAt !== undefined) options.expiresAt = expiresAt;
  const maxClicks = await check('maxClicks', (field) => checkMaxClicks(sent.maxClicks!, field));
  if (maxClicks !== undefined) options.maxClicks = maxClicks;
  const password = await check('password', (field) => checkPassword(sent.password!, field));
  const tags = await check('tags', (field) => checkTags(sent.tags!, field));
  if (tags !== undefined) options.tags = tags;
  if (sent.forwardQuery !== undefined) options.forwardQuery = sent.forwardQuery;
  if (failed) return FAULT;
  if (password === null) options.passwordHash = null;
  else if (password !== undefined) {
    const same = currentHash !== null && (await verifyPassword(password, currentHash));
    options.passwordHash = same ? currentHash : await hashPassword(password);
  }
  return options;
}
