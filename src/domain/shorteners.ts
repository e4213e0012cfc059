/**
 * The shipped list of other link shorteners (data/shorteners.txt). A destination on one of them answers
 * shortener_destination (spec, destination rule 4).
 */
import { readFileSync } from 'node:fs';
import { dataPath } from '../paths.js';
import { normalizeDomain } from './destination.js';

let cached: ReadonlySet<string> | undefined;

/**
 * The normalized domains of data/shorteners.txt, read once and then kept: the file ships with the code and only
 * changes with a new release, so re-reading it per request would buy nothing.
 * Throws when a line is not a valid domain, so a typo in the shipped file fails loudly at start-up and in tests
 * instead of silently leaving a shortener unchecked.
 */
export function loadShortenerList(): ReadonlySet<string> {
  cached ??= parseDomainList(readFileSync(dataPath('shorteners.txt'), 'utf8'), 'data/shorteners.txt');
  return cached;
}

/** Parses "one domain a line, `#` comments" text into a set of normalized domains. */
function parseDomainList(text: string, source: string): ReadonlySet<string> {
  const domains = new Set<string>();
  text.split(/\r?\n/).forEach((line, index) => {
    const entry = line.replace(/#.*/, '').trim();
    if (entry === '') return;
    const domain = normalizeDomain(entry);
    if (domain === null) throw new Error(`${source}:${index + 1}: "${entry}" is not a valid domain.`);
    domains.add(domain);
  });
  return domains;
}
