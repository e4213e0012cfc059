import { REASON_MAX } from '../../domain/reason.js';
import type { Express, Request, Response } from 'express';
import type { SignedIn } from '../../auth/web-sessions.js';
import { looksLikeCode } from '../../domain/code.js';
import { linkByEntry } from '../../store/link-by-key.js';
import { linkNotFound } from '../../domain/link-state.js';
import { ApiError } from '../../errors.js';
import { parseParams } from '../../tools/bad-request.js';
import { reportLink } from '../../tools/report-link.js';
import { alertBox, csrfField, noticeBox, textField, type FieldErrors } from '../../views/forms.js';
import { setRetryAfter } from '../../http/retry-after.js';
import { html } from '../../views/html.js';
import { queryText, render, signedInOnly, text, type PageDeps } from '../request.js';
import { runTool } from '../run-tool.js';

const REPORT_PATH = '/app/report';
const ENTER_A_LINK = 'Enter a short address or code.';

/** An empty reason is left out, so the tool answers in its own words that it is required. */
const reasonParam = (reason: string) => (reason === '' ? {} : { reason });

/**
 * Reporting a link, `/app/report`: anyone signed in reports any live link by its short address or code, with a
 * reason, through the reportLink tool. `?link=` fills the address in (the warning page of a flagged link offers
 * it). Faults of both fields show at once.
 */
export function linkReportPages(app: Express, deps: PageDeps): void {
  const { ctx } = deps;
  const { publicUrl } = ctx.config;

  function show(req: Request, res: Response, me: SignedIn, status = 200, values = { link: queryText(req, 'link'), reason: '' }, errors: FieldErrors = {}, alert?: string) {
    const reported = queryText(req, 'reported');
    render(
      res,
      status,
      'Report a link',
      html`<h1>Report a link</h1>
${noticeBox(looksLikeCode(reported) ? `Thank you: your report of ${publicUrl}/${reported} was sent.` : undefined)}
${alertBox(alert)}
<p>Report a short link of this service that leads to phishing, malware, spam or abuse. The operator reads every report; when several people report the same link, visitors see a warning until the service reviews it.</p>
<form method="post" action="${REPORT_PATH}" class="card" novalidate>
${csrfField(me.csrf)}
${textField({ name: 'link', label: 'Short address or code', value: values.link, error: errors.link, required: true, hint: `Like ${publicUrl}/Ab3dE5x.` })}
${textField({ name: 'reason', label: 'What is wrong with it', value: values.reason, error: errors.reason, required: true, hint: `Up to ${REASON_MAX} characters.`, maxlength: REASON_MAX })}
<button type="submit">Report the link</button>
</form>`,
      'report',
    );
  }

  app.get(REPORT_PATH, signedInOnly(deps, async (req, res, me) => show(req, res, me)));

  app.post(
    REPORT_PATH,
    signedInOnly(deps, async (req, res, me) => {
      const values = { link: text(req, 'link'), reason: text(req, 'reason') };
      const code = (await linkByEntry(ctx.store, publicUrl, values.link))?.code ?? null;
      if (code === null) {
        // The link's fault and the reason's together: the reason is checked by the tool's own param rule.
        const errors: FieldErrors = { link: values.link.trim() === '' ? ENTER_A_LINK : linkNotFound().detail };
        try {
          parseParams(reportLink.input.pick({ reason: true }), reasonParam(values.reason));
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          errors.reason = error.detail;
        }
        return show(req, res, me, values.link.trim() === '' ? 400 : 404, values, errors);
      }
      try {
        await runTool(ctx, reportLink, me, { code, ...reasonParam(values.reason) });
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        setRetryAfter(res, error.retryAfter);
        const field = error.field === 'reason' ? 'reason' : error.status === 404 ? 'link' : null;
        return show(req, res, me, error.status, values, field ? { [field]: error.detail } : {}, field ? undefined : error.detail);
      }
      res.redirect(303, `${REPORT_PATH}?reported=${code}`);
    }),
  );
}
