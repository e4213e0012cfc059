import { PASSWORD_LINK_HOURS } from '../auth/password-link.js';
import { SIGNUP_LINK_DAYS } from '../auth/signup-link.js';
import { addPerson, invitePerson, resetPerson, setOperator, type SetPasswordLink } from '../operator/people.js';
import { optional, required } from './args.js';
import { defineCommand } from './command.js';

const linkText = (link: SetPasswordLink) =>
  `they set their password at this link (one use, within ${PASSWORD_LINK_HOURS} hours, until ${link.setPasswordExpiresAt}):\n` +
  link.setPasswordUrl;

/**
 * `person add --email E [--password P] [--agree-terms]`: a new person; without --password, a one-time link where
 * they choose one; without --agree-terms their tokens answer `first_step` until they agree in the app.
 */
export const personAdd = defineCommand(
  (args, store, { publicUrl }) =>
    addPerson(
      store,
      { email: required(args, 'email'), password: optional(args, 'password'), agreedTerms: args.values['agree-terms'] === true },
      publicUrl,
      new Date(),
    ),
  (person) =>
    [
      `added person ${person.id} <${person.email}>`,
      person.agreedTermsAt === null ? 'not agreed to the terms yet: their tokens work once they agree in the app' : '',
      'setPasswordUrl' in person ? linkText(person) : '',
    ]
      .filter(Boolean)
      .join('\n'),
);

/**
 * `person reset --email E`: a fresh set-password link; the old password, earlier links and web sessions end. With
 * SMTP_URL set the link is mailed to them (the server sends it) and not printed.
 */
export const personReset = defineCommand(
  (args, store, { publicUrl, mail }) => resetPerson(store, required(args, 'email'), publicUrl, new Date(), mail),
  (person) =>
    [
      `reset the password of ${person.id} <${person.email}>; ` +
        `ended ${person.sessionsEnded} web session${person.sessionsEnded === 1 ? '' : 's'}`,
      'mailedTo' in person
        ? `mailed to ${person.mailedTo}: a link to set their password (one use, within ${PASSWORD_LINK_HOURS} hours, until ${person.setPasswordExpiresAt})`
        : linkText(person),
    ].join('\n'),
);

/**
 * `person invite --email E`: a sign-up link for the email (one use, a week), which works while sign-up is not closed;
 * with SMTP_URL set, mailed to the email and not printed.
 */
export const personInvite = defineCommand(
  (args, store, { publicUrl, mail }) => invitePerson(store, required(args, 'email'), publicUrl, new Date(), mail),
  (invitation) =>
    [
      'mailedTo' in invitation
        ? `mailed to ${invitation.mailedTo}: a link to make their account (one use, within ${SIGNUP_LINK_DAYS} days, until ${invitation.signupExpiresAt})`
        : `${invitation.email} makes their account at this link (one use, within ${SIGNUP_LINK_DAYS} days, until ${invitation.signupExpiresAt}):\n${invitation.signupUrl}`,
      invitation.signup === 'open' ? 'sign-up is open: anyone may make an account without a link (settings set --signup invite)' : '',
    ]
      .filter(Boolean)
      .join('\n'),
);

/** `person admin --email E [--off]`: makes the person an operator of the web app's pages (/admin), or no longer one. */
export const personAdmin = defineCommand(
  (args, store) => setOperator(store, required(args, 'email'), args.values.off !== true),
  (person) => {
    const now = person.operator ? 'an operator' : 'not an operator';
    return person.changed ? `${person.email} is ${now} now` : `${person.email} already was ${now}; nothing changed`;
  },
);
