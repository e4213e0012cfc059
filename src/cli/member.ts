import { addMember, promoteMember, removeMember, type MemberOf, type Membership } from '../operator/members.js';
import { required, type Args } from './args.js';
import { defineCommand } from './command.js';

/** The team and the person of `member add|remove|promote --team TEAM_ID --email E`. */
const memberOf = (args: Args): MemberOf => ({ team: required(args, 'team'), email: required(args, 'email') });

const text = (m: Membership) =>
  `${m.person} ${m.changed ? (m.member ? 'added to' : 'removed from') : m.member ? 'already in' : 'was not in'} ${m.team}`;

export const memberAdd = defineCommand((args, store) => addMember(store, memberOf(args), new Date()), text);
/** Anyone but the team's only owner. */
export const memberRemove = defineCommand((args, store) => removeMember(store, memberOf(args)), text);
export const memberPromote = defineCommand(
  (args, store) => promoteMember(store, memberOf(args)),
  (p) => `${p.person} ${p.changed ? 'is now' : 'already was'} an owner of ${p.team}`,
);
