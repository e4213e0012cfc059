import { describe, expect, it } from 'vitest';
import { MAX_TEAM_NAME } from '../../src/domain/account-rules.js';
import { addMember, promoteMember, removeMember } from '../../src/operator/members.js';
import { addTeam } from '../../src/operator/teams.js';
import { T0 } from '../store/contract/fixtures.js';
import { operatorStore, refusal } from './store.js';

describe('operator: teams and members', () => {
  const db = operatorStore();

  it('refuses a team name out of bounds and an owner who is no one', async () => {
    await db.person({ email: 'ann@example.com' });
    expect(await refusal(addTeam(db.store, { name: '  ', ownerEmail: 'ann@example.com' }, T0))).toEqual({
      status: 400,
      code: 'bad_request',
      message: `--name must be 1 to ${MAX_TEAM_NAME} characters without control characters: "  "`,
      field: 'name',
    });
    expect(await refusal(addTeam(db.store, { name: 'Ours', ownerEmail: 'nobody@example.com' }, T0))).toEqual({
      status: 404,
      code: 'not_found',
      message: 'no person has the email nobody@example.com',
      field: 'owner',
    });
  });

  it('refuses a team id that names no team, before looking at the person', async () => {
    const unknown = { status: 404, code: 'not_found', message: 'no team has the id " team_nope"', field: 'team' };
    const of = { team: ' team_nope', email: 'nobody@example.com' };
    for (const change of [addMember(db.store, of, T0), removeMember(db.store, of), promoteMember(db.store, of)]) {
      expect(await refusal(change)).toEqual(unknown);
    }
  });

  it('adds a member once, promotes only a member, and keeps the only owner (409)', async () => {
    const ann = await db.person({ email: 'ann@example.com' });
    const bob = await db.person({ email: 'bob@example.com' });
    const team = await addTeam(db.store, { name: 'Ours', ownerEmail: ann.email }, T0);
    expect(await refusal(promoteMember(db.store, { team: team.id, email: bob.email }))).toEqual({
      status: 409,
      code: 'conflict',
      message: `bob@example.com is not a member of team ${team.id}`,
      field: 'email',
    });
    expect(await addMember(db.store, { team: team.id, email: bob.email }, T0)).toEqual({ team: team.id, person: bob.id, member: true, changed: true });
    expect((await addMember(db.store, { team: team.id, email: bob.email }, T0)).changed).toBe(false);
    expect(await refusal(removeMember(db.store, { team: team.id, email: ann.email }))).toEqual({
      status: 409,
      code: 'conflict',
      message: `ann@example.com is the only owner of team ${team.id}, and a team keeps an owner while it exists: make another member an owner first (member promote)`,
      field: 'email',
    });
    expect(await promoteMember(db.store, { team: team.id, email: bob.email })).toEqual({ team: team.id, person: bob.id, role: 'owner', changed: true });
    expect((await removeMember(db.store, { team: team.id, email: ann.email })).changed).toBe(true);
  });
});
