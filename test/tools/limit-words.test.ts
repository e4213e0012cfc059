import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, LIFTED_LIMIT } from '../../src/domain/limits.js';
import { changesSentence, creationLimitsSentence } from '../../src/tools/limit-words.js';

describe('the limits as tools tell them', () => {
  it('names the numbers in force', () => {
    expect(creationLimitsSentence(DEFAULT_LIMITS)).toBe('A team holds at most 25 links and may make 20 an hour and 100 a day (10 a day in its first week).');
    expect(changesSentence(DEFAULT_LIMITS)).toBe('A team may make 60 changes an hour (new destinations, names, options and deletions together).');
  });

  it('says there is no limit once the operator lifted them (limits set --preset private), not a billion', () => {
    const lifted = { ...DEFAULT_LIMITS, maxLinksPerTeam: LIFTED_LIMIT, perHour: LIFTED_LIMIT, perDay: LIFTED_LIMIT, firstWeekPerDay: LIFTED_LIMIT, changesPerHour: LIFTED_LIMIT };
    expect(creationLimitsSentence(lifted)).toBe('The operator set no limit on the links a team holds or makes.');
    expect(changesSentence(lifted)).toBe("The operator set no limit on a team's changes.");
    // One limit left in place is still told, with the others' numbers.
    expect(creationLimitsSentence({ ...lifted, perDay: 500 })).toBe(
      `A team holds at most ${LIFTED_LIMIT} links and may make ${LIFTED_LIMIT} an hour and 500 a day (500 a day in its first week).`,
    );
  });
});
