import type { SignedIn } from '../auth/web-sessions.js';
import { buttonForm } from './forms.js';
import { html, type Html } from './html.js';

export type Section = 'app' | 'teams' | 'developers' | 'assistants' | 'report' | 'admin' | 'welcome' | 'account' | 'signup' | 'home' | null;

/** One entry of a menu, marked as the page the person is on when `current`. */
export function navItem(href: string, label: string, current: boolean): Html {
  return html`<li><a href="${href}"${current ? html` aria-current="page"` : html``}>${label}</a></li>`;
}

/**
 * The top of every page: for a signed-in person App, Teams, Developers, Assistants, Report a link (Operator for
 * operators), Account and Sign out; else Sign in, Sign up when `offerSignup` (not while sign-up is closed: that page
 * only says so) and Report a link, which asks to sign in first. Anyone handed a harmful short link finds where to
 * report it here, not only on the warning page of a link already flagged.
 */
export function nav(me: SignedIn | null, section: Section, offerSignup: boolean): Html {
  const report = navItem('/app/report', 'Report a link', section === 'report');
  const links = me
    ? html`${navItem('/app', 'App', section === 'app')}${navItem('/teams', 'Teams', section === 'teams')}${navItem(
        '/developers',
        'Developers',
        section === 'developers',
      )}${navItem('/assistants', 'Assistants', section === 'assistants')}${report}${
        // Only operators see it; everyone else gets 404 there anyway (web/operator-pages.ts).
        me.person.operator ? navItem('/admin', 'Operator', section === 'admin') : html``
      }${navItem('/account', 'Account', section === 'account')}<li class="who">${me.person.email}</li><li>${buttonForm({ action: '/signout', csrf: me.csrf, label: 'Sign out', className: 'quiet' })}</li>`
    : html`${navItem('/signin', 'Sign in', section === 'account')}${
        offerSignup ? navItem('/signup', 'Sign up', section === 'signup') : html``
      }${report}`;
  return html`<header><a class="brand" href="/">shortlinks</a><nav aria-label="Main"><ul>${links}</ul></nav></header>`;
}
