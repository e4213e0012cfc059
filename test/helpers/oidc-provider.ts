import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { CALLBACK_PATH } from '../../src/auth/oidc/provider.js';

/** A person known to the test provider: their email and whether the provider verified it. */
export interface ProviderAccount {
  email: string;
  verified: boolean;
}

export const OIDC_CLIENT = { id: 'shortlinks-test', secret: 'test-client-secret-of-32-characters' };

/** Who signs in at the provider's next interaction, or a refusal it answers instead (`access_denied`). */
type NextSignIn = { accountId: string } | { deny: true };

export interface TestProvider {
  issuer: string;
  /** The environment that points the service at this provider (PUBLIC_URL is the service's). */
  env: Record<string, string>;
  /** Adds (or changes) an account; its id is the `sub` the provider gives. */
  account(accountId: string, account: ProviderAccount): void;
  /** Who the next sign-in at the provider is (until told otherwise). */
  signInAs(next: NextSignIn): void;
  /**
   * Follows a browser from the provider's authorization address through its sign-in and consent, as a browser
   * would (redirects, its cookies at the provider kept), to the address of the service it is sent back to.
   */
  authorize(url: string): Promise<URL>;
  close(): Promise<void>;
}

/** How the client proves its secret at the token endpoint. */
export type ClientAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'client_secret_jwt';

/**
 * A real OpenID provider (node-oidc-provider) on loopback, with one confidential client whose redirect URI is
 * `serviceUrl` + /signin/oidc/callback. Its sign-in and consent pages are replaced by an interaction that signs in
 * the account `signInAs` named and grants what was asked, so no HTML is scraped. Claims go in userinfo (the ID token
 * holds `sub` only, as with many providers), which makes the service ask the userinfo endpoint too. With
 * `tokenAuthMethod` the token endpoint takes only that method (and its metadata lists only it); without, the client
 * uses client_secret_basic and the provider lists its defaults.
 */
export async function startOidcProvider(serviceUrl: string, options: { port?: number; tokenAuthMethod?: ClientAuthMethod } = {}): Promise<TestProvider> {
  const accounts = new Map<string, ProviderAccount>();
  let next: NextSignIn = { deny: true };
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_CLIENT.id,
        client_secret: OIDC_CLIENT.secret,
        redirect_uris: [`${serviceUrl}${CALLBACK_PATH}`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: options.tokenAuthMethod ?? 'client_secret_basic',
      },
    ],
    ...(options.tokenAuthMethod ? { clientAuthMethods: [options.tokenAuthMethod] } : {}),
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    pkce: { required: () => true },
    cookies: { keys: ['test cookie key of the provider'] },
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), use: 'sig', alg: 'RS256', kid: 'test' }] as never },
    features: { devInteractions: { enabled: false } },
    // Said outright, so the provider does not print a notice for each default it falls back to.
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: async () => ({ sub, email: account.email, email_verified: account.verified }) };
    },
  });
  const callback = provider.callback();
  handler = (req, res) => {
    if (req.url?.startsWith('/interaction/')) return void interact(req, res).catch((error: unknown) => res.writeHead(500).end(String(error)));
    // oidc-provider takes the secret in the body or the Authorization header whatever the client's method; a strict
    // provider refuses the header from a client_secret_post client, and so does this one, so the method is tested.
    if (options.tokenAuthMethod === 'client_secret_post' && req.url === '/token' && req.headers.authorization !== undefined) {
      return void res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_client' }));
    }
    callback(req, res);
  };

  async function interact(req: IncomingMessage, res: ServerResponse) {
    const details = await provider.interactionDetails(req, res);
    if ('deny' in next) {
      return provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The person said no.' }, { mergeWithLastSubmission: false });
    }
    if (details.prompt.name === 'login') {
      return provider.interactionFinished(req, res, { login: { accountId: next.accountId } }, { mergeWithLastSubmission: false });
    }
    const grant = new provider.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id as string });
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    const grantId = await grant.save();
    return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  return {
    issuer,
    env: { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: OIDC_CLIENT.id, OIDC_CLIENT_SECRET: OIDC_CLIENT.secret },
    account(accountId, account) {
      accounts.set(accountId, account);
    },
    signInAs(nextSignIn) {
      next = nextSignIn;
    },
    async authorize(url) {
      // The provider's own cookies (its interaction and session), as the browser keeps them for its origin.
      const cookies = new Map<string, string>();
      let at = new URL(url);
      for (let hops = 0; hops < 20; hops++) {
        if (at.origin !== issuer) return at;
        const res = await fetch(at, { redirect: 'manual', headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
        for (const line of res.headers.getSetCookie()) {
          const pair = line.split(';')[0]!;
          const eq = pair.indexOf('=');
          cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
        }
        const location = res.headers.get('location');
        await res.arrayBuffer();
        if (location === null) throw new Error(`the provider answered ${res.status} at ${at.pathname} without sending the browser on`);
        at = new URL(location, at);
      }
      throw new Error('too many redirects at the provider');
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
