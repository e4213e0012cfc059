import { TAG_MAX_LENGTH } from '../../domain/link-options.js';
import { NOTE_MAX } from '../../domain/note.js';

/**
 * A note's characters (domain/note.ts), one match each: a letter or number with the marks on it, or one of the
 * other characters a note allows (kept, group 1); or any other single character (replaced).
 */
const NOTE_CHARACTER = /([\p{L}\p{N}]\p{M}*|[ \-_,.'()&!?:])|[^]/gu;

/**
 * A peer's title made into a note that passes checkNote: each character a note does not allow becomes a space
 * (so `Docs | Home` keeps its two words apart), runs of spaces become one, the ends are trimmed, and a title longer
 * than NOTE_MAX characters is cut at the last word that fits (mid-word only when one word fills it). Null when
 * nothing is left: a peer's title is a convenience, and a row is never failed for it.
 */
export function noteOfTitle(title: string): string | null {
  const note = title.replace(NOTE_CHARACTER, (_, kept: string | undefined) => kept ?? ' ').replace(/ {2,}/g, ' ').trim();
  return note === '' ? null : cutToNoteMax(note);
}

function cutToNoteMax(note: string): string {
  const characters = [...note];
  if (characters.length <= NOTE_MAX) return note;
  // One character past the limit: when it is a space, the cut falls between two words already.
  const reach = characters.slice(0, NOTE_MAX + 1).join('');
  const lastSpace = reach.lastIndexOf(' ');
  return lastSpace > 0 ? reach.slice(0, lastSpace).trimEnd() : characters.slice(0, NOTE_MAX).join('');
}

/**
 * A peer's tags cell, split on `separators` (how that product writes several tags in one cell), each tag made to
 * fit our rule (tagOfPeer), the empty and repeated ones dropped. How many a link may carry is the import's to judge.
 */
export function tagsOfPeer(cell: string, separators: RegExp): string[] {
  const tags = cell.split(separators).map(tagOfPeer).filter((tag) => tag !== '');
  return [...new Set(tags)];
}

/**
 * One peer tag in our tag's alphabet (lowercase a-z, 0-9, `-`, `_`; domain/link-options.ts): accents come off
 * their letters (`Café` is `cafe`), any other character goes, spaces between words become `-`, and it is cut to TAG_MAX_LENGTH.
 * Empty when nothing is left (a tag in another script, say).
 */
export function tagOfPeer(tag: string): string {
  return tag
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9_\s-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .slice(0, TAG_MAX_LENGTH);
}

/**
 * The slug in a peer's cell that may hold a whole short URL (`https://bit.ly/3xYz`, `bit.ly/3xYz`), a path
 * (`/keyword/`, as the YOURLS Import/Export plugin writes it) or the slug alone: its path without the slashes
 * around it. Null when there is none.
 */
export function slugOfShortUrl(cell: string): string | null {
  const text = cell.trim();
  const path = text.startsWith('/') || !text.includes('/') ? text : pathOf(text.includes('://') ? text : `https://${text}`);
  const slug = path.replace(/^\/+|\/+$/g, '');
  return slug === '' ? null : slug;
}

/** A URL's path; for text no URL parser takes, what follows its last `/`. */
function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url.slice(url.lastIndexOf('/') + 1);
  }
}
