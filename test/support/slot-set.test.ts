import { describe, expect, it } from 'vitest';
import { SlotSet } from '../../src/support/slot-set.js';

describe('a set kept in reused slots', () => {
  it('holds what was added and not yet deleted, counting each member once', () => {
    const set = new SlotSet<{ name: string }>();
    const a = { name: 'a' };
    const b = { name: 'b' };
    const c = { name: 'c' };
    set.add(a);
    set.add(b);
    set.add(b);
    set.add(c);
    expect(set.size).toBe(3);
    set.delete(b);
    set.delete(b);
    expect(set.size).toBe(2);
    expect([...set].map((member) => member.name)).toEqual(['a', 'c']);
  });

  it('ignores deleting what it never held', () => {
    const set = new SlotSet<object>();
    set.add({});
    set.delete({});
    expect(set.size).toBe(1);
  });

  it('reuses an emptied slot rather than growing', () => {
    const set = new SlotSet<{ n: number }>();
    const members = Array.from({ length: 3 }, (_, n) => ({ n }));
    for (const member of members) set.add(member);
    set.delete(members[1]!);
    const late = { n: 9 };
    set.add(late);
    // The emptied middle slot took the newcomer: the order of iteration shows where it went.
    expect([...set].map((member) => member.n)).toEqual([0, 9, 2]);
    for (let round = 0; round < 1000; round++) {
      set.delete(late);
      set.add(late);
    }
    expect([...set].map((member) => member.n)).toEqual([0, 9, 2]);
  });

  it('lets one object belong to two sets at once', () => {
    const first = new SlotSet<object>();
    const second = new SlotSet<object>();
    const shared = {};
    first.add({});
    first.add(shared);
    second.add(shared);
    first.delete(shared);
    expect(first.size).toBe(1);
    expect([...second]).toEqual([shared]);
  });

  it('may lose members while it is being walked', () => {
    const set = new SlotSet<{ n: number }>();
    const members = Array.from({ length: 4 }, (_, n) => ({ n }));
    for (const member of members) set.add(member);
    const seen: number[] = [];
    for (const member of set) {
      seen.push(member.n);
      set.delete(members[3]!);
    }
    expect(seen).toEqual([0, 1, 2]);
    expect(set.size).toBe(3);
  });
});
