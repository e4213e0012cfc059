import type { LinkState } from '../domain/link-state.js';
import { apiError } from '../errors.js';
import { linkByEntry } from '../store/link-by-key.js';
import type { LinkRecord, Store } from '../store/ports.js';
import { quote } from './quote.js';

/** A link as the operator sees it; `seq` is the store's insertion counter, no business of anyone outside it. */
export type OperatorLink = Omit<LinkRecord, 'seq'>;

/** The refusal for a code (or an entry) that names no link, quoting it as it was given. */
function noSuchLink(raw: string) {
  return apiError.notFound(`no link has the code ${quote(raw)}`, 'code');
}

/**
 * The link a person means by what they typed or pasted (its code or name, its short address), looked up as a visit
 * would; a refusal when there is none.
 */
export async function findLink(store: Store, publicUrl: string, entered: string): Promise<LinkRecord> {
  const link = await linkByEntry(store, publicUrl, entered);
  if (!link) throw noSuchLink(entered);
  return link;
}

/** The link with exactly this code (as an address of the operator pages carries it); a refusal when there is none. */
export async function linkByCode(store: Store, code: string): Promise<LinkRecord> {
  const link = await store.links.findByCode(code);
  if (!link) throw noSuchLink(code);
  return link;
}

/**
 * Sets the link's state. Flagged links show a warning page, disabled ones answer 410; restoring (`active`) makes
 * it redirect again and resolves its open reports and review requests.
 */
export async function setLinkState(store: Store, code: string, state: LinkState, now: Date): Promise<OperatorLink> {
  const link = await store.links.setState(code.trim(), state, now);
  if (!link) throw noSuchLink(code);
  const { seq: _seq, ...rest } = link;
  return rest;
}
