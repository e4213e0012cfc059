/**
 * A set of objects that come and go by the thousand a second (the answers in flight), kept in the slots of one
 * array that is reused, each member knowing its slot.
 *
 * Why not a Set: V8 keeps a Set's entries in a hash table that it copies to a new one whenever deletions have
 * filled it, and the table left behind, once it has lived long enough to be moved to the old generation, is
 * treated as alive by every young-generation collection until the next full one. Each such table holds the
 * answers that were in flight when it was copied, so those answers (with their requests, sockets' buffers and
 * headers) were moved to the old generation too: measured on a redirect, the young collections took 8 to 12 ms
 * instead of under 1, about 13 µs of every redirect's CPU. An array whose slots are emptied as members leave is
 * never copied while it is large enough, so nothing dead keeps a young member alive.
 */
export class SlotSet<T extends object> {
  private readonly slots: Array<T | undefined> = [];
  /** Emptied slots, reused last-emptied first. */
  private readonly free: number[] = [];
  /** Each member's slot, on the member itself (a small integer: nothing for the collector to follow). */
  private readonly slot = Symbol('slot');
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(member: T): void {
    const holder = member as Record<symbol, number | undefined>;
    if (holder[this.slot] !== undefined) return;
    const index = this.free.pop() ?? this.slots.length;
    this.slots[index] = member;
    holder[this.slot] = index;
    this.count += 1;
  }

  delete(member: T): void {
    const holder = member as Record<symbol, number | undefined>;
    const index = holder[this.slot];
    if (index === undefined) return;
    this.slots[index] = undefined;
    holder[this.slot] = undefined;
    this.free.push(index);
    this.count -= 1;
  }

  *[Symbol.iterator](): IterableIterator<T> {
    for (const member of this.slots) if (member !== undefined) yield member;
  }
}
