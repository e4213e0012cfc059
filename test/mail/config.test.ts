import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

const SET = { SMTP_URL: 'smtps://mailer:s3cret-pass@smtp.example.com:465', MAIL_FROM: 'Short links <links@example.com>' };

describe('SMTP_URL and MAIL_FROM (email)', () => {
  it('is off unless both are set; then a first retry after a minute unless MAIL_RETRY_MS says otherwise', () => {
    expect(loadConfig({}).mail).toBeUndefined();
    expect(loadConfig(SET).mail).toEqual({ smtpUrl: SET.SMTP_URL, from: SET.MAIL_FROM, retryMs: 60_000 });
    expect(loadConfig({ ...SET, SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_RETRY_MS: '500' }).mail).toMatchObject({ smtpUrl: 'smtp://127.0.0.1:2525', retryMs: 500 });
  });

  it('refuses to start with one of the two', () => {
    const partial = /^Bad configuration: SMTP_URL: SMTP_URL and MAIL_FROM are set together or not at all$/;
    expect(() => loadConfig({ SMTP_URL: SET.SMTP_URL })).toThrow(partial);
    expect(() => loadConfig({ MAIL_FROM: SET.MAIL_FROM })).toThrow(partial);
  });

  it('refuses a URL that is not smtp:// or smtps://, never repeating it (it may hold a password)', () => {
    for (const url of ['https://mailer:s3cret-pass@smtp.example.com', 'smtp:s3cret-pass', 'mailer:s3cret-pass@smtp.example.com']) {
      let message = '';
      try {
        loadConfig({ ...SET, SMTP_URL: url });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toBe('Bad configuration: SMTP_URL: must be an smtp:// or smtps:// URL (smtps://user:password@host:465)');
    }
  });
});
