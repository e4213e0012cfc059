import type { Express, Request, Response } from 'express';
import type { SignedIn } from '../../auth/web-sessions.js';
import { CliError } from '../../cli/errors.js';
import { LIMIT_FLAGS, type LimitFlag } from '../../cli/limit-flags.js';
import { LimitFaults, setLimits, showLimits } from '../../cli/limits.js';
import { alertBox, csrfField, noticeBox, textField } from '../../views/forms.js';
import { html } from '../../views/html.js';
import { commandArgs, operatorOnly, renderOperatorPage, sentence } from '../operator-pages.js';
import { queryText, text, type PageDeps } from '../request.js';

/** Each limit's label on the form, in the order `limits set` lists its flags. */
const LABELS: Record<LimitFlag, string> = {
  'team-links': 'Links a team may hold',
  'per-hour': 'New links per team per hour',
  'per-day': 'New links per team per day',
  'first-week-per-day': 'New links per team per day in its first week',
  'changes-per-hour': 'Link changes per team per hour',
  'calls-per-minute': 'Calls per person per minute',
  'reports-to-flag': 'Reports from established people that flag a link',
  'established-after-hours': 'Hours after sign-up before a person is established',
  'signups-per-hour': 'Sign-ups per network per hour',
  'teams-per-hour': 'New teams per network, and per person, per hour',
};

const FLAGS = Object.keys(LIMIT_FLAGS) as LimitFlag[];

/**
 * The limits, `/admin/limits`: every limit `limits set` takes, in one form, saved by the CLI's own function (all
 * or nothing; every value it refuses is shown beside its field at once). Every process applies them on its next
 * request.
 */
export function adminLimitsPages(app: Express, deps: PageDeps): void {
  const { store } = deps.ctx;

  async function show(req: Request, res: Response, me: SignedIn, status = 200, typed?: Record<string, string>, faults: Partial<Record<LimitFlag, string>> = {}, alert?: string) {
    const limits = await showLimits(commandArgs(), store);
    const fields = FLAGS.map((flag) =>
      textField({
        name: flag,
        label: LABELS[flag],
        value: typed?.[flag] ?? String(limits[LIMIT_FLAGS[flag]]),
        error: faults[flag] === undefined ? undefined : sentence(faults[flag]!),
        hint: `--${flag}, now ${limits[LIMIT_FLAGS[flag]]}`,
        required: true,
      }),
    );
    const saved = status === 200 && queryText(req, 'done') === 'saved' ? 'Limits saved: every process applies them from its next request.' : undefined;
    renderOperatorPage(
      res,
      status,
      'Limits',
      '/admin/limits',
      html`<h1>Limits</h1>${noticeBox(saved)}${alertBox(alert)}
<form method="post" action="/admin/limits" class="card" novalidate>${csrfField(me.csrf)}
${fields}
<button type="submit">Save the limits</button>
</form>`,
    );
  }

  app.get('/admin/limits', operatorOnly(deps, (req, res, me) => show(req, res, me)));

  app.post(
    '/admin/limits',
    operatorOnly(deps, async (req, res, me) => {
      // Only the fields the form sent, as only the flags given on a command line: the others stay as they are.
      const typed = Object.fromEntries(FLAGS.flatMap((flag) => (req.body?.[flag] === undefined ? [] : [[flag, text(req, flag)]])));
      try {
        await setLimits(commandArgs(typed), store);
        res.redirect(303, '/admin/limits?done=saved');
      } catch (error) {
        if (error instanceof LimitFaults) return show(req, res, me, 400, typed, error.faults, 'Nothing was saved: fix the limits marked below.');
        if (error instanceof CliError) return show(req, res, me, 400, typed, {}, sentence(error.message));
        throw error;
      }
    }),
  );
}
