import type { MailMessage } from '../../store/ports.js';
import { composeMessage, serviceName } from '../message.js';

/** The link that confirms a new address before an account takes it (mailed to the new address). */
export function emailChangeMessage(to: string, url: string, hours: number, publicUrl: string): MailMessage {
  const service = serviceName(publicUrl);
  return composeMessage({
    to,
    subject: `Confirm your new email address for ${service}`,
    paragraphs: [`Someone signed in at ${service} asked to change their account's email to this address (${to}). Follow this link to confirm it; it works once, within ${hours} hours.`],
    link: url,
    footnote: 'If it was not you, ignore this message: nothing changes.',
  });
}
