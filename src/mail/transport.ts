import nodemailer from 'nodemailer';
import type { MailConfig } from '../config.js';
import type { MailMessage } from '../store/ports.js';

/** Hands one message to the SMTP server; rejects with the library's error (its `code`, `responseCode`). */
export type Deliver = (message: MailMessage) => Promise<void>;

/** Limits on a slow or silent SMTP server, so an attempt ends well within its claim (sender.ts). */
const TIMEOUT_MS = 30_000;

/**
 * nodemailer's SMTP transport for SMTP_URL: smtps:// speaks TLS from the start; smtp:// upgrades with STARTTLS
 * when the server offers it. The URL (and its password) stays inside the transport.
 */
export function smtpDeliver(config: MailConfig): { deliver: Deliver; close(): void } {
  // Pooled: a round's messages share one connection (and one sign-in) instead of one each.
  const transport = nodemailer.createTransport({
    pool: true,
    maxConnections: 1,
    url: config.smtpUrl,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  });
  return {
    async deliver({ to, subject, text, html }) {
      await transport.sendMail({ from: config.from, to, subject, text, html });
    },
    close: () => transport.close(),
  };
}
