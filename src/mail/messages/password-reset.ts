import { PASSWORD_LINK_HOURS } from '../../auth/password-link.js';
import type { MailMessage } from '../../store/ports.js';
import { composeMessage, serviceName } from '../message.js';

/** The set-password link of "Forgot your password?" and of `shortlinks person reset`. */
export function passwordResetMessage(to: string, url: string, publicUrl: string): MailMessage {
  const service = serviceName(publicUrl);
  return composeMessage({
    to,
    subject: `Set your password for ${service}`,
    paragraphs: [`Choose a new password for your account at ${service} (${to}) at this link. It works once, within ${PASSWORD_LINK_HOURS} hours.`],
    link: url,
    footnote: 'If you did not ask for this, ignore this message: your password stays as it is.',
  });
}
