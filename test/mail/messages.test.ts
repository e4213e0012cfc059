import { describe, expect, it } from 'vitest';
import { emailChangeMessage } from '../../src/mail/messages/email-change.js';
import { passwordResetMessage } from '../../src/mail/messages/password-reset.js';
import { signupInvitationMessage } from '../../src/mail/messages/signup-invitation.js';
import { teamInvitationMessage } from '../../src/mail/messages/team-invitation.js';

const PUBLIC_URL = 'https://links.example.com';

describe('mail messages', () => {
  it('say the same words as text and HTML, the link written out in both', () => {
    const link = `${PUBLIC_URL}/set-password/abc`;
    const message = passwordResetMessage('ann@example.com', link, PUBLIC_URL);
    expect(message).toEqual({
      to: 'ann@example.com',
      subject: 'Set your password for links.example.com',
      text:
        'Choose a new password for your account at links.example.com (ann@example.com) at this link. It works once, within 24 hours.\n\n' +
        `${link}\n\nIf you did not ask for this, ignore this message: your password stays as it is.\n`,
      html:
        '<!doctype html>\n<html><body>\n' +
        '<p>Choose a new password for your account at links.example.com (ann@example.com) at this link. It works once, within 24 hours.</p>\n' +
        `<p><a href="${link}">${link}</a></p>\n<p>If you did not ask for this, ignore this message: your password stays as it is.</p>\n</body></html>\n`,
    });
  });

  it('escape what people chose (a team name) in the HTML, not in the text', () => {
    const message = teamInvitationMessage('bo@example.com', '<b>Crew</b> & "Co"', 'ann@example.com', PUBLIC_URL);
    expect(message.subject).toBe('ann@example.com invited you to the team <b>Crew</b> & "Co" on links.example.com');
    expect(message.text).toContain('to the team <b>Crew</b> & "Co" on links.example.com');
    expect(message.html).toContain('to the team &lt;b&gt;Crew&lt;/b&gt; &amp; &quot;Co&quot; on links.example.com');
    expect(message.html).not.toContain('<b>');
    expect(message.text).toContain(`${PUBLIC_URL}/teams`);
  });

  it('name the service in every subject', () => {
    expect(signupInvitationMessage('c@example.com', `${PUBLIC_URL}/signup?invitation=x`, PUBLIC_URL).subject).toBe('Your invitation to links.example.com');
    expect(emailChangeMessage('d@example.com', `${PUBLIC_URL}/account/email/confirm/x`, 24, PUBLIC_URL).subject).toBe(
      'Confirm your new email address for links.example.com',
    );
  });
});
