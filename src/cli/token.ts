import { issueToken, tokenIdOf as idOfToken } from '../auth/personal-token.js';
import { TOKEN_LABEL_RULE, tokenLabelOf } from '../domain/account-rules.js';
import { cryptoRandom } from '../domain/random.js';
import type { Store, TokenRecord } from '../store/ports.js';
import { optional, quote, required, single, type Args } from './args.js';
import { defineCommand } from './command.js';
import { dataError, usageError } from './errors.js';
import { personByEmail, teamById } from './lookup.js';

/** The answer of `token create`: the only place the secret ever appears. */
export interface CreatedToken extends TokenRecord {
  token: string;
}

/** Every scope a token may hold: the HTTP operation names, and the tool names of the MCP-only tools. */
export async function knownScopes(): Promise<string[]> {
  // Loaded here, not at the top: the tool registry pulls in zod and every tool, which only this command needs.
  const [{ tools }, { scopeOf }] = await Promise.all([import('../tools/index.js'), import('../tools/define-tool.js')]);
  return tools.map(scopeOf);
}

async function parseScopes(raw: string | undefined): Promise<string[] | null> {
  if (raw === undefined) return null;
  const scopes = [...new Set(raw.split(',').map((scope) => scope.trim()).filter(Boolean))];
  // An empty list would mean "every operation" in the store: too easy to get by accident (`--scopes "$UNSET"`).
  if (scopes.length === 0) throw usageError('--scopes needs at least one operation name; leave it out for all');
  const known = await knownScopes();
  const unknown = scopes.filter((scope) => !known.includes(scope));
  if (unknown.length > 0) {
    throw usageError(`unknown scope ${quote(unknown[0]!)}; scopes are ${known.join(', ')}`);
  }
  return scopes;
}

function parseLabel(raw: string | undefined): string | null {
  const checked = tokenLabelOf(raw ?? '');
  if (checked === null) throw usageError(`--label: ${TOKEN_LABEL_RULE}`);
  return checked.label;
}

/**
 * `token create --email E --team TEAM_ID [--label L] [--scopes op1,op2] [--limited]`: a token acting as the person,
 * for the team.
 */
export async function createToken(args: Args, store: Store, now = new Date()): Promise<CreatedToken> {
  const label = parseLabel(optional(args, 'label'));
  const scopes = await parseScopes(optional(args, 'scopes'));
  const person = await personByEmail(store, required(args, 'email'));
  const team = await teamById(store, required(args, 'team'));
  if (!(await store.teams.isMember(team.id, person.id))) {
    throw dataError(`${person.email} is not a member of team ${team.id}`);
  }
  const input = { personId: person.id, teamId: team.id, label, scopes, limited: args.values['limited'] === true };
  const { token, record } = await issueToken(store, cryptoRandom, input, now);
  return { ...record, token };
}

/** A token's id from what an operator may paste: the id itself, or the whole token (say, one found leaked). */
function tokenIdOf(raw: string): string {
  const value = raw.trim();
  return idOfToken(value) ?? value;
}

/** `token revoke TOKEN_ID`: the token stops working at once. Revoking a revoked token changes nothing. */
export async function revokeToken(args: Args, store: Store, now = new Date()): Promise<TokenRecord> {
  const raw = single(args, 'TOKEN_ID');
  const id = tokenIdOf(raw);
  if (!(await store.tokens.grant(id))) throw dataError(`no token has the id ${quote(raw)}`);
  await store.tokens.revoke(id, now);
  const grant = await store.tokens.grant(id);
  if (!grant) throw dataError(`no token has the id ${quote(raw)}`);
  // Only the record: the grant also carries the secret's hash and facts about the person.
  const { secretHash: _hash, personAgreedTerms: _agreed, personInTeam: _inTeam, ...record } = grant;
  return record;
}

const scopesText = (record: TokenRecord) => (record.scopes === null ? 'all operations' : record.scopes.join(', '));

export const tokenCreate = defineCommand(createToken, (created) =>
  [
    `created token ${created.id}${created.label === null ? '' : ` ${quote(created.label)}`} for ${created.personId} in ${created.teamId}` +
      ` (scopes: ${scopesText(created)}${created.limited ? '; limited to its team' : ''})`,
    created.token,
    'This is the only time the token is shown: store it now.',
  ].join('\n'),
);

export const tokenRevoke = defineCommand(revokeToken, (record) => `revoked token ${record.id} at ${record.revokedAt}`);
