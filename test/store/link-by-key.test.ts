import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/domain/limits.js';
import { nameInAddress } from '../../src/domain/link-name.js';
import { linkByEntry, linkByKey } from '../../src/store/link-by-key.js';
import type { LinkRecord, Store } from '../../src/store/ports.js';
import { openSqliteStore } from '../../src/store/sqlite/index.js';

const now = new Date('2026-11-21T12:00:00Z');
const PUBLIC_URL = 'https://sho.rt';

let store: Store;
let launch: LinkRecord;
beforeEach(async () => {
  store = openSqliteStore(':memory:');
  const person = await store.people.add({ email: 'ada@example.com', passwordHash: null, agreedTerms: true }, now);
  const team = await store.teams.add({ name: 'T', ownerId: person.id }, now);
  launch = await store.links.create({ teamId: team.id, teamCreatedAt: now, destination: 'https://example.com/', name: 'launch', note: null }, DEFAULT_LIMITS, now);
});
afterEach(() => store.close());

describe('linkByKey', () => {
  it('finds a name in any case and a code only as it is', async () => {
    for (const key of ['launch', 'Launch', 'LAUNCH', launch.code]) expect((await linkByKey(store, key))?.id, key).toBe(launch.id);
    // The code in lowercase is a name's shape, and no link has that name.
    expect(await linkByKey(store, launch.code.toLowerCase())).toBeNull();
  });

  it('finds nothing for a key no name or code can be', async () => {
    for (const key of ['la', 'launch!', 'la.unch', '\u212Aaunch', '']) expect(await linkByKey(store, key), key).toBeNull();
  });
});

describe('linkByEntry', () => {
  it('takes the address as copied, in any case of the name and with a trailing slash', async () => {
    for (const entered of [`${PUBLIC_URL}/Launch/`, '/LAUNCH', ` ${PUBLIC_URL}/${launch.code}/qr `]) {
      expect((await linkByEntry(store, PUBLIC_URL, entered))?.id, entered).toBe(launch.id);
    }
  });
});

describe('nameInAddress', () => {
  it('lowercases a key of a name shape in ASCII, and refuses any other', () => {
    expect(nameInAddress('LaunCH-2_x')).toBe('launch-2_x');
    // The Kelvin sign lowercases to k, yet is no letter of a name.
    for (const key of ['\u212Aaunch', 'ab', 'a'.repeat(51), 'la unch', 'läunch']) expect(nameInAddress(key), key).toBeNull();
  });
});
