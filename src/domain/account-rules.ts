/**
 * Rules for what people type about themselves and their teams, shared by the operator CLI and the web app so both
 * accept exactly the same values.
 */
import { hasHiddenCharacters } from './hidden-characters.js';

// Deliberately loose: one "@" with something on each side and no spaces. Whether the address receives mail is
// for the sign-in flow to find out, not for a regular expression.
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const MAX_EMAIL = 254;

/**
 * An email as stored (trimmed and lowercased: the column is case-insensitive), or null when it is not one. Control
 * and bidirectional formatting characters make no address (and PostgreSQL text cannot even hold U+0000).
 */
export function emailOrNull(raw: string): string | null {
  const email = raw.trim().toLowerCase();
  return email.length <= MAX_EMAIL && EMAIL.test(email) && !hasHiddenCharacters(email) ? email : null;
}

/** Shorter passwords fall to guessing even behind scrypt; longer ones are capped so hashing stays cheap. */
export const MIN_PASSWORD = 8;
export const MAX_PASSWORD = 1024;

export function passwordFits(password: string): boolean {
  return password.length >= MIN_PASSWORD && password.length <= MAX_PASSWORD;
}

export const MAX_TEAM_NAME = 100;

/**
 * A team name as stored (trimmed), or null unless it is 1 to 100 characters without control or bidirectional
 * formatting characters (they would garble or disguise every list and page that shows the name).
 */
export function teamNameOrNull(raw: string): string | null {
  const name = raw.trim();
  return name === '' || name.length > MAX_TEAM_NAME || hasHiddenCharacters(name) ? null : name;
}

export const MAX_TOKEN_LABEL = 100;

/** What the web app shows beside the field and the CLI prints when a label breaks the rule below. */
export const TOKEN_LABEL_RULE = `A label is at most ${MAX_TOKEN_LABEL} characters, without control characters.`;

/**
 * A token's label as stored: trimmed, null when nothing is left (a label is optional); null when it breaks the rule
 * instead: over 100 characters, or control or bidirectional formatting characters (as team names).
 */
export function tokenLabelOf(raw: string): { label: string | null } | null {
  const label = raw.trim();
  if (label.length > MAX_TOKEN_LABEL || hasHiddenCharacters(label)) return null;
  return { label: label === '' ? null : label };
}
