import { INVITATION_MS } from '../../domain/invitations.js';
import type { MailMessage } from '../../store/ports.js';
import { composeMessage, serviceName } from '../message.js';

/**
 * A team invitation: who invited whom to which team. It carries no token: the invitation waits on the Teams page
 * of whoever signs in (or makes an account) with the address, as it did before mail.
 */
export function teamInvitationMessage(to: string, team: string, invitedBy: string, publicUrl: string): MailMessage {
  const service = serviceName(publicUrl);
  return composeMessage({
    to,
    subject: `${invitedBy} invited you to the team ${team} on ${service}`,
    paragraphs: [
      `${invitedBy} invited you (${to}) to the team ${team} on ${service}, for its short links.`,
      `Sign in, or make an account with this address, and accept or decline it on your Teams page within ${INVITATION_MS / 86_400_000} days.`,
    ],
    link: `${publicUrl}/teams`,
    footnote: 'If you do not want to join, decline it there or ignore this message.',
  });
}
