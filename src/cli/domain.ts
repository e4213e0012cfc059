import { proofName, proofText } from '../domain/custom-domain.js';
import { cryptoRandom } from '../domain/random.js';
import { addDomain, removeDomain } from '../domains/manage.js';
import { systemClock } from '../shared/clock.js';
import type { TeamDomain } from '../store/ports.js';
import { optional, required } from './args.js';
import { defineCommand } from './command.js';

/** A domain as `--json` prints it: as stored, with the TXT record that proves it. */
function shown(domain: TeamDomain) {
  return { ...domain, record: { name: proofName(domain.domain), type: 'TXT', value: proofText(domain.token) } };
}

/** One line a domain: its name, team, state (primary when it is), and what it waits for or what went wrong. */
function line(domain: TeamDomain): string {
  const state = domain.primary ? `${domain.state}, primary` : domain.proof === 'operator' ? `${domain.state} by the operator` : domain.state;
  const waiting = domain.state === 'pending' ? `; publish TXT ${proofName(domain.domain)} "${proofText(domain.token)}"` : '';
  const problem = domain.problem ? ` (${domain.problem})` : '';
  return `${domain.domain} ${domain.teamId} ${state}${waiting}${problem}`;
}

/** `domain add --team T --domain D [--verified]`: pending until DNS proves it, or verified on the operator's word. */
export const domainAdd = defineCommand(
  async (args, store, context) => {
    const input = { teamId: required(args, 'team'), domain: required(args, 'domain'), verified: args.values.verified === true };
    return shown(await addDomain({ store, publicUrl: context.publicUrl, random: cryptoRandom, clock: systemClock }, input, 'operator'));
  },
  (domain) => `added ${line(domain)}`,
);

/** `domain list [--team T]`: every team's domains, or one team's, by name. */
export const domainList = defineCommand(
  async (args, store) => ({ domains: (await store.domains.list(optional(args, 'team'))).map(shown) }),
  ({ domains }) => (domains.length === 0 ? 'no domains' : domains.map(line).join('\n')),
);

/** `domain remove --domain D`: the team's links answer on it no more, from the next request on. */
export const domainRemove = defineCommand(
  async (args, store) => shown(await removeDomain({ store }, { domain: required(args, 'domain') }, 'operator')),
  (domain) => `removed ${domain.domain} from ${domain.teamId}`,
);
