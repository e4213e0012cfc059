import type { SignedIn } from '../auth/web-sessions.js';
import { buttonForm } from './forms.js';
import { html, type Html } from './html.js';

export type Section = 'app' | 'teams' | 'developers' | 'assistants' | 'report' | 'admin' | 'welcome' | 'account' | 'signup' | 'home' | null;

function item(href: string, label: string, current: boolean): Html {
  return html`<li><a href="${href}"${current ? html` aria-current="page"` : html``}>${label}</a></li>`;
}

/**
 * The top of every page: for a signed-in person App, Teams, Developers, Assistants, Report a link (Operator for
 * operators) and Sign out; else sign in / up and Report a link, which asks to sign in first. Anyone handed a
 * harmful short link finds where to report it here, not only on the warning page of a link already flagged.
 */
export function nav(me: SignedIn | null, section: Section): Html {
  const report = item('/app/report', 'Report a link', section === 'report');
  const links = me
    ? html`${item('/app', 'App', section === 'app')}${item('/teams', 'Teams', section === 'teams')}${item(
        '/developers',
        'Developers',
        section === 'developers',
      )}${item('/assistants', 'Assistants', section === 'assistants')}${report}${
        // Only operators see it; everyone else gets 404 there anyway (web/operator-pages.ts).
        me.person.operator ? item('/admin', 'Operator', section === 'admin') : html``
      }<li class="who">${me.person.email}</li><li>${buttonForm({ action: '/signout', csrf: me.csrf, label: 'Sign out', className: 'quiet' })}</li>`
    : html`${item('/signin', 'Sign in', section === 'account')}${item('/signup', 'Sign up', section === 'signup')}${report}`;
  return html`<header><a class="brand" href="/">shortlinks</a><nav aria-label="Main"><ul>${links}</ul></nav></header>`;
}
