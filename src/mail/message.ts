import { html } from '../views/html.js';
import type { MailMessage } from '../store/ports.js';

/** What every message says: a few short paragraphs and one link, then why the reader got it. */
export interface MessageParts {
  to: string;
  subject: string;
  paragraphs: string[];
  link: string;
  /** Said last, after the link: what to do if the reader did not ask for this. */
  footnote: string;
}

/** The service as a message names it: the host of PUBLIC_URL (`links.example.com`). */
export function serviceName(publicUrl: string): string {
  return new URL(publicUrl).host;
}

/**
 * A message as plain text and as the same words in HTML, every value escaped. Short and plain on purpose: no
 * images, no tracking, nothing a mail client has to load; the link written out in full in both.
 */
export function composeMessage({ to, subject, paragraphs, link, footnote }: MessageParts): MailMessage {
  const text = [...paragraphs, link, footnote].join('\n\n') + '\n';
  const body = html`${paragraphs.map((p) => html`<p>${p}</p>\n`)}<p><a href="${link}">${link}</a></p>\n<p>${footnote}</p>\n`;
  return { to, subject, text, html: `<!doctype html>\n<html><body>\n${body.text}</body></html>\n` };
}
