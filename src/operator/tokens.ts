import { issueToken, tokenIdOf as idOfToken } from '../auth/personal-token.js';
import { TOKEN_LABEL_RULE, tokenLabelOf } from '../domain/account-rules.js';
import { cryptoRandom } from '../domain/random.js';
import { apiError } from '../errors.js';
import type { Store, TokenRecord } from '../store/ports.js';
import { notMember, personByEmail, teamById } from './lookup.js';
import { quote } from './quote.js';

/** A token an operator makes for a person in a team: scopes undefined for every operation, as a comma list. */
export interface NewToken {
  email: string;
  team: string;
  label?: string | undefined;
  /** Operation names separated by commas, as typed; undefined for every operation. */
  scopes?: string | undefined;
  limited: boolean;
}

/** The answer of createToken: the only place the secret ever appears. */
export interface CreatedToken extends TokenRecord {
  token: string;
}

/** Every scope a token may hold: the HTTP operation names, and the tool names of the MCP-only tools. */
async function knownScopes(): Promise<string[]> {
  // Loaded here, not at the top: the tool registry pulls in zod and every tool, which only creating a token needs.
  const [{ tools }, { scopeOf }] = await Promise.all([import('../tools/index.js'), import('../tools/define-tool.js')]);
  return tools.map(scopeOf);
}

async function parseScopes(raw: string | undefined): Promise<string[] | null> {
  if (raw === undefined) return null;
  const scopes = [...new Set(raw.split(',').map((scope) => scope.trim()).filter(Boolean))];
  // An empty list would mean "every operation" in the store: too easy to get by accident (`--scopes "$UNSET"`).
  if (scopes.length === 0) throw apiError.badRequest('--scopes needs at least one operation name; leave it out for all', 'scopes');
  const known = await knownScopes();
  const unknown = scopes.filter((scope) => !known.includes(scope));
  if (unknown.length > 0) {
    throw apiError.badRequest(`unknown scope ${quote(unknown[0]!)}; scopes are ${known.join(', ')}`, 'scopes');
  }
  return scopes;
}

function parseLabel(raw: string | undefined): string | null {
  const checked = tokenLabelOf(raw ?? '');
  if (checked === null) throw apiError.badRequest(`--label: ${TOKEN_LABEL_RULE}`, 'label');
  return checked.label;
}

/** A token acting as the person, for the team (limited: only within it). */
export async function createToken(store: Store, input: NewToken, now: Date): Promise<CreatedToken> {
  const label = parseLabel(input.label);
  const scopes = await parseScopes(input.scopes);
  const person = await personByEmail(store, input.email);
  const team = await teamById(store, input.team);
  if (!(await store.teams.isMember(team.id, person.id))) throw notMember(person.email, team.id);
  const { token, record } = await issueToken(store, cryptoRandom, { personId: person.id, teamId: team.id, label, scopes, limited: input.limited }, now);
  return { ...record, token };
}

/** A token's id from what an operator may paste: the id itself, or the whole token (say, one found leaked). */
function tokenIdOf(raw: string): string {
  const value = raw.trim();
  return idOfToken(value) ?? value;
}

/** The token stops working at once. Revoking a revoked token changes nothing. */
export async function revokeToken(store: Store, raw: string, now: Date): Promise<TokenRecord> {
  const id = tokenIdOf(raw);
  const noSuchToken = () => apiError.notFound(`no token has the id ${quote(raw)}`, 'token');
  if (!(await store.tokens.grant(id))) throw noSuchToken();
  await store.tokens.revoke(id, now);
  const grant = await store.tokens.grant(id);
  if (!grant) throw noSuchToken();
  // Only the record: the grant also carries the secret's hash and facts about the person.
  const { secretHash: _hash, personAgreedTerms: _agreed, personInTeam: _inTeam, ...record } = grant;
  return record;
}
