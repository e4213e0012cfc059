import { describe, expect, it } from 'vitest';
import { TOKEN_LABEL_RULE } from '../../src/domain/account-rules.js';
import { createToken, revokeToken } from '../../src/operator/tokens.js';
import { T0 } from '../store/contract/fixtures.js';
import { operatorStore, refusal } from './store.js';

describe('operator: tokens', () => {
  const db = operatorStore();

  async function member() {
    const person = await db.person({ email: 'ann@example.com' });
    return { person, team: await db.team(person) };
  }

  it('refuses a label or scopes out of bounds (400) and a person outside the team (409)', async () => {
    const { team } = await member();
    const input = { email: 'ann@example.com', team: team.id, limited: false };
    expect(await refusal(createToken(db.store, { ...input, label: 'new\nline' }, T0))).toEqual({
      status: 400,
      code: 'bad_request',
      message: `--label: ${TOKEN_LABEL_RULE}`,
      field: 'label',
    });
    expect(await refusal(createToken(db.store, { ...input, scopes: ' , ' }, T0))).toEqual({
      status: 400,
      code: 'bad_request',
      message: '--scopes needs at least one operation name; leave it out for all',
      field: 'scopes',
    });
    const unknown = await refusal(createToken(db.store, { ...input, scopes: 'createLink,deleteEverything' }, T0));
    expect(unknown).toMatchObject({ status: 400, code: 'bad_request', field: 'scopes' });
    expect(unknown.message).toMatch(/^unknown scope "deleteEverything"; scopes are [a-zA-Z, ]*createLink/);
    await db.person({ email: 'bob@example.com' });
    expect(await refusal(createToken(db.store, { ...input, email: 'bob@example.com' }, T0))).toEqual({
      status: 409,
      code: 'conflict',
      message: `bob@example.com is not a member of team ${team.id}`,
      field: 'email',
    });
  });

  it('revokes a token by its id or by the whole token; refuses an id that names none (404)', async () => {
    const { team } = await member();
    const created = await createToken(db.store, { email: 'ann@example.com', team: team.id, scopes: 'createLink', limited: true }, T0);
    expect(created).toMatchObject({ teamId: team.id, scopes: ['createLink'], limited: true, revokedAt: null });
    expect(await revokeToken(db.store, ` ${created.token} `, T0)).toMatchObject({ id: created.id, revokedAt: T0.toISOString() });
    expect(await refusal(revokeToken(db.store, 'tok_AAAAAAAAAAAAAAAA', T0))).toEqual({
      status: 404,
      code: 'not_found',
      message: 'no token has the id "tok_AAAAAAAAAAAAAAAA"',
      field: 'token',
    });
  });
});
