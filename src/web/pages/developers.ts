import type { Express, Request, Response } from 'express';
import { issueToken, tokenIdOf } from '../../auth/personal-token.js';
import { MAX_TOKEN_LABEL, TOKEN_LABEL_RULE, tokenLabelOf } from '../../domain/account-rules.js';
import { cryptoRandom } from '../../domain/random.js';
import { tools } from '../../tools/index.js';
import type { Team, TokenRecord } from '../../store/ports.js';
import { queryText, render, signedInOnly, text, texts, type PageDeps } from '../request.js';
import type { SignedIn } from '../../auth/web-sessions.js';
import { alertBox, checkbox, csrfField, noticeBox, selectField, textField, type FieldErrors } from '../../views/forms.js';
import { html, when, type Html } from '../../views/html.js';
import { someOf } from '../../shared/words.js';
import { newTokenCookie } from '../new-token-cookie.js';
import { COPIED_STATUS, copyButton } from '../../views/copy-button.js';
import { PAGE_SCRIPT_TAG, SCRIPT_PAGE_CSP } from './page-script.js';
import { teamsOf } from '../teams-of.js';

/** The scopes offered: the HTTP operations, in the registry's order. */
const OPERATIONS = tools.flatMap((tool) => (tool.operation ? [tool.operation] : []));

interface Draft {
  team?: string;
  label?: string;
  scopes?: string[];
  limited?: boolean;
  errors?: FieldErrors;
}

/**
 * The Developers page: personal tokens for the API, made for one team, shown once (on the page the form redirects
 * to: see new-token-cookie.ts), listed with their labels, revoked.
 */
export function developerPages(app: Express, deps: PageDeps): void {
  const { ctx } = deps;
  const { publicUrl } = ctx.config;
  const newToken = newTokenCookie({ publicUrl, secret: () => ctx.store.settings.cursorSecret() });

  async function show(req: Request, res: Response, me: SignedIn, status = 200, draft: Draft = {}, alert?: string) {
    const teams = await teamsOf(ctx.store, me.person.id);
    const tokens = await ctx.store.tokens.listForPerson(me.person.id);
    // A token's team is one of theirs unless they left it since: only those few are read, each once.
    const known = new Map(teams.map((t) => [t.id, t]));
    const left = [...new Set(tokens.map((t) => t.teamId).filter((id) => !known.has(id)))];
    for (const team of await Promise.all(left.map((id) => ctx.store.teams.get(id)))) if (team) known.set(team.id, team);
    const teamOf = (t: TokenRecord) => known.get(t.teamId) ?? null;
    const rows = tokens.map((t) => tokenRow(t, teamOf(t)));
    const revoked = queryText(req, 'done') === 'revoked' ? 'Token revoked: it stops working at once.' : undefined;
    // Only on a GET, the page a made token's form redirects to; and only while the token is live and the person's.
    const token = req.method === 'GET' ? await newToken.take(req, res, me) : null;
    const made = token === null ? undefined : tokens.find((t) => t.id === tokenIdOf(token));
    const card = token !== null && made ? madeCard(token, made, teamOf(made)) : null;
    // The card's Copy button needs the page script.
    if (card) res.set('Content-Security-Policy', SCRIPT_PAGE_CSP);
    render(
      res,
      status,
      'Developers',
      html`<h1>Developers</h1>${card}${noticeBox(revoked)}${alertBox(alert)}
<p>Scripts call the HTTP API at <code>${publicUrl}/v1</code> (described at <a href="/v1/openapi.json">/v1/openapi.json</a>)
with <code>Authorization: Bearer &lt;token&gt;</code>. A token acts as you, within what you choose here.</p>
${teams.length ? tokenForm(teams, me.csrf, draft) : html`<p><a href="/teams">Make a team</a> first: a token is made for one of your teams.</p>`}
<h2>Your tokens</h2>
${rows.length
  ? html`<table class="stack"><thead><tr><th scope="col">Label</th><th scope="col">Team</th><th scope="col">Operations</th><th scope="col">Limited to the team</th><th scope="col">Made</th><th scope="col">Last used</th><th scope="col"><span class="muted">Actions</span></th></tr></thead><tbody>${rows}</tbody></table>`
  : html`<p class="muted">No tokens yet.</p>`}`,
      'developers',
    );
  }

  function tokenForm(teams: Team[], csrf: string, draft: Draft): Html {
    const chosen = new Set(draft.scopes ?? []);
    const boxes = OPERATIONS.map((op) => checkbox({ name: 'scopes', value: op, label: html`<code>${op}</code>`, checked: chosen.has(op), id: `scope-${op}` }));
    const scopeError = draft.errors?.scopes;
    return html`<form method="post" action="/developers/tokens" class="card" novalidate>
<h2 style="margin-top:0">Make a token</h2>${csrfField(csrf)}
${selectField({ name: 'team', label: 'Team', options: teams.map((t) => ({ value: t.id, label: t.name })), selected: draft.team ?? '', error: draft.errors?.team })}
${textField({ name: 'label', label: 'Label (optional)', value: draft.label ?? '', error: draft.errors?.label, hint: `To tell your tokens apart, like “deploy script”. Up to ${MAX_TOKEN_LABEL} characters.`, maxlength: MAX_TOKEN_LABEL })}
<fieldset class="field"${scopeError ? html` aria-describedby="scopes-error"` : html``}><legend>Operations it may call</legend>
<p class="hint">Tick none for every operation.</p><div class="checks">${boxes}</div>
${scopeError ? html`<p class="error" id="scopes-error">${scopeError}</p>` : html``}</fieldset>
<div class="field">${checkbox({ name: 'limited', value: 'yes', label: 'Limit it to this team’s record (it changes nothing in your other teams, and does not see them)', checked: draft.limited ?? false })}</div>
<button type="submit">Make token</button>
</form>`;
  }

  function teamName(team: Team | null): Html {
    return team ? html`<a href="/teams/${team.id}">${team.name}</a>` : html`<span class="muted">a team that is gone</span>`;
  }

  function tokenRow(t: TokenRecord, team: Team | null): Html {
    const ops = t.scopes === null ? html`all` : html`${t.scopes.join(', ')}`;
    const label = t.label === null ? html`<span class="muted">none</span>` : html`${t.label}`;
    // Asks first (confirmations.ts), as deleting a link does.
    const revoke = html`<a href="/developers/tokens/${t.id}/revoke" aria-label="Revoke token ${t.label ?? t.id}…">Revoke…</a>`;
    return html`<tr><td data-label="Label" class="wrap">${label}</td><td data-label="Team">${teamName(team)}</td><td data-label="Operations" class="wrap">${ops}</td><td data-label="Limited to the team">${t.limited ? 'yes' : 'no'}</td><td data-label="Made">${when(t.createdAt)}</td><td data-label="Last used">${when(t.lastUsedAt)}</td><td>${revoke}</td></tr>`;
  }

  function madeCard(token: string, record: TokenRecord, team: Team | null): Html {
    const title = record.label === null ? html`Your new token for ${teamName(team)}` : html`Your new token “${record.label}” for ${teamName(team)}`;
    return html`<section class="card notice" role="status" aria-labelledby="made-title">
<h2 id="made-title" style="margin-top:0">${title}</h2>
<p>Copy it now: it is shown only this once, and is stored only as a hash.</p>
<div class="field"><label for="new-token">Token</label>
<input id="new-token" class="secret" type="text" readonly value="${token}" autocomplete="off" spellcheck="false">
${copyButton(token, 'the token')}</div>
</section>${COPIED_STATUS}${PAGE_SCRIPT_TAG}`;
  }

  app.get('/developers', signedInOnly(deps, async (req, res, me) => show(req, res, me)));

  app.post(
    '/developers/tokens',
    signedInOnly(deps, async (req, res, me) => {
      const teamId = text(req, 'team');
      const scopes = [...new Set(texts(req, 'scopes'))];
      const limited = text(req, 'limited') === 'yes';
      const draft: Draft = { team: teamId, label: text(req, 'label'), scopes, limited, errors: {} };
      const team = teamId ? await ctx.store.teams.get(teamId) : null;
      if (!team || !(await ctx.store.teams.isMember(team.id, me.person.id))) draft.errors!.team = 'Choose one of your teams.';
      const label = tokenLabelOf(draft.label!);
      if (label === null) draft.errors!.label = TOKEN_LABEL_RULE;
      const unknown = scopes.filter((s) => !OPERATIONS.includes(s));
      if (unknown.length) draft.errors!.scopes = `Not an operation: ${someOf(unknown)}.`;
      if (!team || label === null || Object.keys(draft.errors!).length) return show(req, res, me, 400, draft);

      const input = { personId: me.person.id, teamId: team.id, label: label.label, scopes: scopes.length ? scopes : null, limited };
      const { token } = await issueToken(ctx.store, cryptoRandom, input, ctx.clock.now());
      await newToken.keep(res, me, token);
      res.redirect(303, '/developers');
    }),
  );

  app.post(
    '/developers/tokens/revoke',
    signedInOnly(deps, async (req, res, me) => {
      const id = text(req, 'id');
      const mine = (await ctx.store.tokens.listForPerson(me.person.id)).some((t) => t.id === id);
      if (!mine) return show(req, res, me, 404, {}, 'There is no such token among yours.');
      await ctx.store.tokens.revoke(id, ctx.clock.now());
      res.redirect(303, '/developers?done=revoked');
    }),
  );
}
