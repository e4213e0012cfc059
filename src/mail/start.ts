import type { MailConfig } from '../config.js';
import { startMailSender, type MailSender, type MailSenderOptions } from './sender.js';
import { smtpDeliver } from './transport.js';

/** A server process's part of mail (SMTP_URL set): the sender on the outbox, over SMTP; stop closes both. */
export function startMail(config: MailConfig, options: Pick<MailSenderOptions, 'outbox' | 'clock' | 'log' | 'counted'>): MailSender {
  const smtp = smtpDeliver(config);
  const sender = startMailSender({ ...options, deliver: smtp.deliver, retryMs: config.retryMs });
  return {
    runNow: sender.runNow,
    async stop() {
      await sender.stop();
      smtp.close();
    },
  };
}
