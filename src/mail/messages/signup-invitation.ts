import { SIGNUP_LINK_DAYS } from '../../auth/signup-link.js';
import type { MailMessage } from '../../store/ports.js';
import { composeMessage, serviceName } from '../message.js';

/** The sign-up link of `shortlinks person invite`. */
export function signupInvitationMessage(to: string, url: string, publicUrl: string): MailMessage {
  const service = serviceName(publicUrl);
  return composeMessage({
    to,
    subject: `Your invitation to ${service}`,
    paragraphs: [`You are invited to make an account at ${service} with this address (${to}). The link works once, within ${SIGNUP_LINK_DAYS} days.`],
    link: url,
    footnote: 'If you do not want an account, ignore this message.',
  });
}
