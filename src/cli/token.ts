import { quote } from '../operator/quote.js';
import { createToken, revokeToken } from '../operator/tokens.js';
import type { TokenRecord } from '../store/ports.js';
import { optional, required, single } from './args.js';
import { defineCommand } from './command.js';

const scopesText = (record: TokenRecord) => (record.scopes === null ? 'all operations' : record.scopes.join(', '));

/** `token create --email E --team TEAM_ID [--label L] [--scopes op1,op2] [--limited]`: printed once, stored as a hash. */
export const tokenCreate = defineCommand(
  (args, store) =>
    createToken(
      store,
      {
        email: required(args, 'email'),
        team: required(args, 'team'),
        label: optional(args, 'label'),
        scopes: optional(args, 'scopes'),
        limited: args.values['limited'] === true,
      },
      new Date(),
    ),
  (created) =>
    [
      `created token ${created.id}${created.label === null ? '' : ` ${quote(created.label)}`} for ${created.personId} in ${created.teamId}` +
        ` (scopes: ${scopesText(created)}${created.limited ? '; limited to its team' : ''})`,
      created.token,
      'This is the only time the token is shown: store it now.',
    ].join('\n'),
);

/** `token revoke TOKEN_ID` (or the whole token): it stops working at once. */
export const tokenRevoke = defineCommand((args, store) => revokeToken(store, single(args, 'TOKEN_ID'), new Date()), (record) => `revoked token ${record.id} at ${record.revokedAt}`);
