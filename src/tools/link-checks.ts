import { checkName } from '../domain/link-name.js';
import { assertChangeable, type ChangeableField } from '../domain/link-state.js';
import { checkNote } from '../domain/note.js';
import type { Caller } from '../shared/caller.js';
import type { LinkRecord, NewLink, Team } from '../store/ports.js';
import { linkToChange } from './access.js';
import type { ToolContext } from './define-tool.js';
import { FAULT, type Faults } from './faults.js';
import { checkLinkOptions, type SentOptions } from './link-options.js';

/** A new link's fields as sent: a name and a note may be null (none); its options. */
type NewLinkInput = { destination: string; name: string | null; note: string | null } & SentOptions;

/** The link a name is checked for: its team, and the link itself (null: one not made yet). */
export interface NameOwner {
  teamId: string;
  linkId: string | null;
}

/**
 * A link the caller may change, in a state that takes a new `field`. The store checks the state again atomically;
 * checking it first answers link_flagged whatever the value, and spares a flagged link the network checks.
 */
export async function changeableLink(
  ctx: ToolContext,
  faults: Faults,
  caller: Caller,
  code: string,
  field: ChangeableField,
): Promise<LinkRecord | typeof FAULT> {
  const link = await faults.check('code', () => linkToChange(ctx, caller, code));
  if (link === FAULT) return FAULT;
  return (await faults.check(field, () => assertChangeable(link.state, field))) === FAULT ? FAULT : link;
}

/**
 * A short link name's rule, then, read ahead for a form, whether the store would refuse it to `owner` (taken, or
 * kept by another team); the store decides that atomically as it writes. Null stays null.
 */
export async function checkNameFor(
  ctx: ToolContext,
  faults: Faults,
  name: string | null,
  owner: NameOwner | null,
  field = 'name',
): Promise<string | null | typeof FAULT> {
  const checked = await faults.check(field, () => checkName(name, field));
  if (!faults.ahead || owner === null || checked === FAULT || checked === null) return checked;
  const free = await faults.check(field, () => ctx.store.links.nameRefusal(checked, owner.teamId, owner.linkId, field));
  return free === FAULT ? FAULT : checked;
}

/**
 * One new link checked as the store takes it, in `team` (the caller's to change, or FAULT when not): the name and
 * note rules, then the destination rules (which may wait on the network, so never inside a transaction). The store
 * then checks, atomically, the team's limits and the name's uniqueness, and draws a fresh code. `prefix` names the
 * fields of a createLinks item (`links[3].`).
 */
export async function checkNewLink(
  ctx: ToolContext,
  faults: Faults,
  team: Team | typeof FAULT,
  input: NewLinkInput,
  prefix = '',
): Promise<NewLink | typeof FAULT> {
  const owner = team === FAULT ? null : { teamId: team.id, linkId: null };
  const name = await checkNameFor(ctx, faults, input.name, owner, `${prefix}name`);
  const note = await faults.check(`${prefix}note`, () => checkNote(input.note, `${prefix}note`));
  const options = await checkLinkOptions(ctx, faults, input, prefix);
  const checked = await faults.check(`${prefix}destination`, () => ctx.destinations.check(input.destination, `${prefix}destination`));
  if (team === FAULT || name === FAULT || note === FAULT || options === FAULT || checked === FAULT) return FAULT;
  // Stored as the parser serializes it, which is where the redirect goes, so lists and pages show that.
  return { teamId: team.id, teamCreatedAt: new Date(team.createdAt), destination: checked.url.href, name, note, ...options };
}
