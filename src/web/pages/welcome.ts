import type { Express } from 'express';
import { nextField, queryText, render, safeNext, signedInOnly, text, type PageDeps } from '../request.js';
import { checkbox, csrfField } from '../../views/forms.js';
import { html, when } from '../../views/html.js';
import { inNoTeam } from '../../tools/access.js';

const TERMS = html`<ol>
<li>You make short links only to addresses you may share, and never to malware, phishing, scams or anything
unlawful.</li>
<li>Anyone who has a short link can follow it. Click counts are estimates; bots and link checkers are not counted.</li>
<li>People can report a link. The service may flag or disable a link that breaks these terms, and may block sites.</li>
<li>Scripts and assistants you connect act as you, with the same rules and limits. Keep your tokens secret and revoke
any you no longer use.</li>
<li>The service keeps your email, a hash of your password, your teams and links, and daily click counts.</li>
</ol>`;

/** The first step: agree to the terms. Until then the API answers 403 first_step and other pages lead here. */
export function welcomePages(app: Express, deps: PageDeps): void {
  const { ctx, sessions } = deps;

  app.get(
    '/welcome',
    signedInOnly(
      deps,
      async (req, res, me) => {
        const next = safeNext(queryText(req, 'next'));
        if (me.person.agreedTermsAt !== null) {
          return render(res, 200, 'Terms', html`<h1>Terms</h1>${TERMS}<p>You agreed to these terms on ${when(me.person.agreedTermsAt)}.
            <a href="/app">Go to your links</a>.</p>`, 'welcome');
        }
        return agreeForm(res, 200, await sessions.formToken(req, res), next, undefined);
      },
      { firstStep: true },
    ),
  );

  app.post(
    '/welcome',
    signedInOnly(
      deps,
      async (req, res, me) => {
        const next = safeNext(text(req, 'next'));
        if (text(req, 'agree') !== 'yes') {
          return agreeForm(res, 400, me.csrf, next, 'Tick “I agree to the terms” to go on.');
        }
        await ctx.store.people.agreeTerms(me.person.id, ctx.clock.now());
        // In no team, a person can make no link: the step goes on to the Teams page, which offers to make a team and
        // shows the invitations waiting, then leads where they were going (an assistant's sign-in, say).
        if (await inNoTeam(ctx, me.person.id)) return res.redirect(303, next ? `/teams?next=${encodeURIComponent(next)}` : '/teams');
        res.redirect(303, next ?? '/app');
      },
      { firstStep: true },
    ),
  );
}

function agreeForm(res: Parameters<typeof render>[0], status: number, csrf: string, next: string | null, error: string | undefined) {
  render(
    res,
    status,
    'Welcome',
    html`<h1>Welcome to shortlinks</h1>
<p>One step before you start: please read and agree to the terms.</p>
<h2>Terms</h2>
${TERMS}
<form method="post" action="/welcome" class="card">
${csrfField(csrf)}${nextField(next)}
<div class="field">${checkbox({ name: 'agree', value: 'yes', label: 'I agree to the terms', error })}</div>
<button type="submit">Continue</button>
</form>`,
    'welcome',
  );
}
