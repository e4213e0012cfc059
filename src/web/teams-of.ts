import type { Store, Team } from '../store/ports.js';

const PAGE = 100;

/** Every team of the person, by name then id: the pages list all of them, however many, read a page at a time. */
export async function teamsOf(store: Store, personId: string): Promise<Team[]> {
  const teams: Team[] = [];
  for (;;) {
    const last = teams.at(-1);
    const page = await store.teams.listForPerson(personId, { limit: PAGE, after: last ? [last.name, last.id] : null });
    teams.push(...page);
    if (page.length < PAGE) return teams;
  }
}
