import { describe, expect, it } from 'vitest';
import { findLink, linkByCode, setLinkState } from '../../src/operator/links.js';
import { T0 } from '../store/contract/fixtures.js';
import { operatorStore, refusal } from './store.js';

const PUBLIC_URL = 'https://s.example';

describe('operator: link states', () => {
  const db = operatorStore();

  it('sets a state by a code given with spaces around it, and answers the link without the store\'s seq', async () => {
    const link = await db.link(await db.team());
    const flagged = await setLinkState(db.store, ` ${link.code} `, 'flagged', T0);
    expect(flagged).toEqual({ ...link, seq: undefined, state: 'flagged', changedAt: flagged.changedAt });
    expect(Object.keys(flagged)).not.toContain('seq');
    expect((await db.store.links.findByCode(link.code))?.state).toBe('flagged');
  });

  it('refuses a code that names no link (404), quoting it as it was given', async () => {
    expect(await refusal(setLinkState(db.store, ' Nope123', 'disabled', T0))).toEqual({
      status: 404,
      code: 'not_found',
      message: 'no link has the code " Nope123"',
      field: 'code',
    });
  });

  it('finds a link by its short address, code or name; refuses an entry that names none', async () => {
    const link = await db.link(await db.team(), { name: 'spring-sale' });
    for (const entry of [`${PUBLIC_URL}/${link.code}?utm=x`, link.code, ' spring-sale ', '/spring-sale']) {
      expect((await findLink(db.store, PUBLIC_URL, entry)).id).toBe(link.id);
    }
    expect(await refusal(findLink(db.store, PUBLIC_URL, `${PUBLIC_URL}/no-such-name`))).toEqual({
      status: 404,
      code: 'not_found',
      message: `no link has the code "${PUBLIC_URL}/no-such-name"`,
      field: 'code',
    });
  });

  it('looks a code up exactly as an address of the operator pages carries it', async () => {
    const link = await db.link(await db.team());
    expect((await linkByCode(db.store, link.code)).id).toBe(link.id);
    expect((await refusal(linkByCode(db.store, ` ${link.code}`))).message).toBe(`no link has the code " ${link.code}"`);
  });
});
