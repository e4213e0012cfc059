import type { Express, Request, Response } from 'express';
import type { SignedIn } from '../../auth/web-sessions.js';
import type { ServiceSettings } from '../../domain/service-settings.js';
import { SETTING_FLAGS, type SettingFlag } from '../../operator/setting-flags.js';
import { setSettings, showSettings } from '../../operator/service-settings.js';
import { selectField } from '../../views/forms.js';
import { operatorFormPage, operatorOnly, refusal, sentence } from '../operator-pages.js';
import { queryText, text, type PageDeps } from '../request.js';

/** Each setting's label on the form, and its values' words, in the order `settings set` lists its flags. */
const FIELDS: { [F in SettingFlag]: { label: string; values: Record<ServiceSettings[F], string> } } = {
  signup: {
    label: 'Who may make an account',
    values: {
      open: 'Anyone (open)',
      invite: 'Only an email a team invited or person invite sent a link to (invite)',
      closed: 'No one: the operator adds people with person add (closed)',
    },
  },
  destinations: {
    label: 'Where links may point',
    values: {
      public: 'Public https sites only (public)',
      private: 'Also http, IP addresses and intranet names such as http://wiki/ (private)',
    },
  },
};

const FLAGS = Object.keys(SETTING_FLAGS) as SettingFlag[];

/**
 * The service settings, `/admin/settings`: what `settings set` changes, in one form, saved by the operator layer as
 * the CLI saves them. Every process applies them on its next request.
 */
export function adminSettingsPages(app: Express, deps: PageDeps): void {
  const { store } = deps.ctx;

  async function show(req: Request, res: Response, me: SignedIn, status = 200, alert?: string) {
    const settings = await showSettings(store);
    const fields = FLAGS.map((flag) => {
      // Widened: FIELDS has every value of every flag, but TypeScript cannot pair a flag's values with its words.
      const words: Readonly<Record<string, string>> = FIELDS[flag].values;
      return selectField({
        name: flag,
        label: `${FIELDS[flag].label} (--${flag}, now ${settings[flag]})`,
        options: SETTING_FLAGS[flag].map((value) => ({ value, label: words[value]! })),
        selected: settings[flag],
      });
    });
    const saved = status === 200 && queryText(req, 'done') === 'saved' ? 'Settings saved: every process applies them from its next request.' : undefined;
    operatorFormPage(res, status, { title: 'Settings', section: '/admin/settings', notice: saved, alert, csrf: me.csrf, fields, save: 'Save the settings' });
  }

  app.get('/admin/settings', operatorOnly(deps, (req, res, me) => show(req, res, me)));

  app.post(
    '/admin/settings',
    operatorOnly(deps, async (req, res, me) => {
      const typed = Object.fromEntries(FLAGS.filter((flag) => req.body?.[flag] !== undefined).map((flag) => [flag, text(req, flag)]));
      try {
        await setSettings(store, typed);
        res.redirect(303, '/admin/settings?done=saved');
      } catch (error) {
        return show(req, res, me, 400, `Nothing was saved. ${sentence(refusal(error, 'bad_request').message)}`);
      }
    }),
  );
}
