import type { Express, Request, Response } from 'express';
import type { SignedIn } from '../../auth/web-sessions.js';
import { LIMIT_FLAGS, type LimitFlag } from '../../operator/limit-flags.js';
import { LimitFaults, setLimits, showLimits } from '../../operator/limits.js';
import { textField } from '../../views/forms.js';
import { html } from '../../views/html.js';
import { operatorFormPage, operatorOnly, refusal, sentence } from '../operator-pages.js';
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
  'analytics-days': 'Days of click analytics kept',
  'team-domains': 'Own domains a team may hold',
};

const FLAGS = Object.keys(LIMIT_FLAGS) as LimitFlag[];

/** The hidden field that keeps the value a limit had when the form was drawn. */
const shownName = (flag: LimitFlag) => `shown-${flag}`;

/**
 * The limits, `/admin/limits`: every limit `limits set` takes, in one form, saved by the operator layer as the
 * CLI saves them (all or nothing; every value it refuses is shown beside its field at once). Only the limits whose
 * value was changed on the form are sent, as only the flags given on a command line: a browser sends every field,
 * and saving the others would store today's defaults as overrides (a later release's defaults would never apply)
 * and undo what another operator set meanwhile. Every process applies them on its next request.
 */
export function adminLimitsPages(app: Express, deps: PageDeps): void {
  const { store } = deps.ctx;

  interface Sent {
    typed: Record<string, string>;
    /** What the form showed when it was drawn, kept through a refusal so "changed" still means changed by them. */
    shown: Record<string, string>;
  }

  async function show(req: Request, res: Response, me: SignedIn, status = 200, sent?: Sent, faults: Partial<Record<LimitFlag, string>> = {}, alert?: string) {
    const limits = await showLimits(store);
    const typed = sent?.typed;
    const shown = (flag: LimitFlag) => sent?.shown[flag] ?? String(limits[LIMIT_FLAGS[flag]]);
    const fields = FLAGS.map((flag) =>
      html`<input type="hidden" name="${shownName(flag)}" value="${shown(flag)}">${textField({
        name: flag,
        label: LABELS[flag],
        value: typed?.[flag] ?? String(limits[LIMIT_FLAGS[flag]]),
        error: faults[flag] === undefined ? undefined : sentence(faults[flag]!),
        hint: `--${flag}, now ${limits[LIMIT_FLAGS[flag]]}`,
        required: true,
      })}`,
    );
    const done = status === 200 ? queryText(req, 'done') : '';
    const saved =
      done === 'saved' ? 'Limits saved: every process applies them from its next request.' : done === 'unchanged' ? 'Nothing changed: no limit was edited.' : undefined;
    operatorFormPage(res, status, { title: 'Limits', section: '/admin/limits', notice: saved, alert, csrf: me.csrf, fields, save: 'Save the limits' });
  }

  app.get('/admin/limits', operatorOnly(deps, (req, res, me) => show(req, res, me)));

  app.post(
    '/admin/limits',
    operatorOnly(deps, async (req, res, me) => {
      const sentFlags = FLAGS.filter((flag) => req.body?.[flag] !== undefined);
      const typed = Object.fromEntries(sentFlags.map((flag) => [flag, text(req, flag)]));
      const shown = Object.fromEntries(sentFlags.flatMap((flag) => (req.body?.[shownName(flag)] === undefined ? [] : [[flag, text(req, shownName(flag))]])));
      // A field sent without what it showed (a form of an older page, a script) counts as changed.
      const changed = Object.fromEntries(Object.entries(typed).filter(([flag, value]) => value !== shown[flag]));
      if (Object.keys(changed).length === 0) return res.redirect(303, '/admin/limits?done=unchanged');
      try {
        await setLimits(store, changed);
        res.redirect(303, '/admin/limits?done=saved');
      } catch (error) {
        const sent = { typed, shown };
        if (error instanceof LimitFaults) return show(req, res, me, 400, sent, error.faults, 'Nothing was saved: fix the limits marked below.');
        return show(req, res, me, 400, sent, {}, sentence(refusal(error, 'bad_request').message));
      }
    }),
  );
}
