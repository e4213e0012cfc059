import { escapeHtml, page } from '../views/layout.js';

/**
 * The pages a visitor sees instead of a redirect. Small, escaped, no scripts.
 * A flagged link's warning: `appBase` is where the web app is, '' on PUBLIC_URL itself, PUBLIC_URL on a team's domain.
 */
export function flaggedPage(destination: string, code: string, appBase = ''): string {
  // Named as the redirect writes it, so the page reads as where "Continue" goes: destinations are stored in that
  // form, and one stored as sent before that (`https://evil.example\@bank.example/`) is shown serialized too.
  const shown = escapeHtml(new URL(destination).href);
  return page(
    'This link is under review',
    `<h1>This link is under review</h1>
     <p>The service flagged this short link and is checking it. It leads to:</p>
     <p><code>${shown}</code></p>
     <p>Go on only if you trust that address.</p>
     <p><a href="${shown}" rel="noopener noreferrer nofollow">Continue to ${shown}</a></p>
     <p>Was it harmful? <a href="${escapeHtml(appBase)}/app/report?link=${escapeHtml(code)}">Report it</a> (signed in).</p>`,
  );
}

export function disabledPage(): string {
  return page('Link disabled', '<h1>This link was disabled</h1><p>The service turned this short link off.</p>');
}

/** A team's domain's root, when the team chose no address for it. */
export function domainRootPage(domain: string): string {
  const shown = escapeHtml(domain);
  return page(shown, `<h1>${shown}</h1><p>This address serves short links. Follow a short link to be taken where it leads.</p>`);
}

export function notFoundPage(): string {
  return page('Not found', '<h1>Not found</h1><p>There is no short link at this address.</p>');
}

/** An expired link, or one past its click cap: which rule ended it is its owners' business. */
export function endedPage(): string {
  return page('Link ended', '<h1>This link has ended</h1><p>The short link no longer leads anywhere.</p>');
}

/**
 * A link with a password: a form posting it to the address visited (its query string kept, for forwardQuery). No
 * destination is named: that is what the password keeps.
 */
export function passwordPage(said: 'ask' | 'wrong' | 'limited'): string {
  const message = {
    ask: '',
    wrong: '<p class="error" role="alert" id="password-error">That password is not right.</p>',
    limited: '<p class="error" role="alert" id="password-error">Too many tries; wait a few minutes, then try again.</p>',
  }[said];
  const described = said === 'ask' ? '' : ' aria-describedby="password-error" aria-invalid="true"';
  return page(
    'Password required',
    `<h1>This link needs a password</h1>
     <p>Whoever shared it can tell you the password.</p>
     ${message}
     <form method="post">
       <label for="password">Password</label>
       <input id="password" name="password" type="password" required autocomplete="off" maxlength="128"${described}>
       <button type="submit">Continue</button>
     </form>`,
  );
}
