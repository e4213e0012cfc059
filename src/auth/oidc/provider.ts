import * as client from 'openid-client';
import type { OidcConfig } from '../../config.js';
import type { Logger } from '../../observability/logger.js';
import { failureLog, reasonOf } from './failure-log.js';

/** Where the provider sends the person back: PUBLIC_URL + this, registered with the provider as the redirect URI. */
export const CALLBACK_PATH = '/signin/oidc/callback';

/** What a sign-in must find again when the person comes back: kept in the browser (flow-cookie.ts) meanwhile. */
export interface FlowChecks {
  /** The PKCE code verifier: only its S256 challenge went to the provider. */
  verifier: string;
  state: string;
  nonce: string;
}

/** Who the provider says signed in. The email is null when the provider shared none. */
export interface ProviderIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
}

/** The provider could not be reached (down, or too slow): the person may try again later. */
export class ProviderUnavailable extends Error {
  override readonly name = 'ProviderUnavailable';
}

/**
 * The provider answers, but this service cannot use it: its token endpoint takes neither client_secret_basic nor
 * client_secret_post. Only the operator can mend it (at the provider); the person may sign in otherwise meanwhile.
 */
export class ProviderUnsupported extends Error {
  override readonly name = 'ProviderUnsupported';
}

/** The provider refused, or its answer did not check out (state, nonce, signature, code): this sign-in fails. */
export class SignInRefused extends Error {
  override readonly name = 'SignInRefused';
}

// Every request to the provider is bounded: a provider that hangs answers "not available", not a hung page.
const TIMEOUT_SECONDS = 10;

/** The ways of proving the client secret at the token endpoint this service has, the spec's default first. */
export type TokenEndpointAuthMethod = 'client_secret_basic' | 'client_secret_post';

/**
 * How this service proves its client secret to the provider, from its discovery metadata's
 * `token_endpoint_auth_methods_supported`: client_secret_basic when listed or when there is no list (the spec's
 * default), else client_secret_post when listed, else null: none this service has.
 */
export function tokenEndpointAuthMethod(supported: unknown): TokenEndpointAuthMethod | null {
  if (!Array.isArray(supported) || supported.includes('client_secret_basic')) return 'client_secret_basic';
  return supported.includes('client_secret_post') ? 'client_secret_post' : null;
}

/**
 * The OpenID provider as openid-client sees it: authorization code flow with PKCE (S256), `state` and `nonce`,
 * configured by discovery from the issuer. Discovery happens at the first sign-in, not at start, so a provider
 * that is down never stops the service; a failed discovery is forgotten, so the next sign-in tries again. What
 * fails on the provider's side (discovery, the token request, its answer) goes to `log` (failure-log.ts); what a
 * browser brought (a wrong state, a spent code, the person's refusal at the provider) does not.
 */
export function oidcProvider(oidc: OidcConfig, publicUrl: string, deps: { log: () => Logger; now: () => number }) {
  const redirectUri = `${publicUrl}${CALLBACK_PATH}`;
  const tell = failureLog({ issuer: oidc.issuer, ...deps });
  let discovered: Promise<client.Configuration> | undefined;

  function configuration(): Promise<client.Configuration> {
    discovered ??= discover().catch((error: unknown) => {
      discovered = undefined;
      throw error;
    });
    return discovered;
  }

  async function discover(): Promise<client.Configuration> {
    const issuer = new URL(oidc.issuer);
    // config.ts allows http only on a loopback host (a provider for tests or on this machine).
    const execute = issuer.protocol === 'http:' ? [client.allowInsecureRequests] : [];
    let config: client.Configuration;
    try {
      config = await client.discovery(issuer, oidc.clientId, undefined, clientAuthentication(oidc.clientSecret), { execute, timeout: TIMEOUT_SECONDS });
    } catch (error) {
      tell('discovery', reasonOf(error));
      throw new ProviderUnavailable(`discovery from ${oidc.issuer} failed`, { cause: error });
    }
    const supported = config.serverMetadata().token_endpoint_auth_methods_supported;
    if (tokenEndpointAuthMethod(supported) === null) {
      tell('discovery', `its token endpoint takes neither client_secret_basic nor client_secret_post (it lists: ${supported?.join(', ') || 'none'})`);
      throw new ProviderUnsupported(`${oidc.issuer} supports neither client_secret_basic nor client_secret_post`);
    }
    return config;
  }

  return {
    /** The provider's authorization address for a new sign-in, and the checks its answer must pass. */
    async start(): Promise<{ url: string; checks: FlowChecks }> {
      const config = await configuration();
      const checks = { verifier: client.randomPKCECodeVerifier(), state: client.randomState(), nonce: client.randomNonce() };
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid email',
        code_challenge: await client.calculatePKCECodeChallenge(checks.verifier),
        code_challenge_method: 'S256',
        state: checks.state,
        nonce: checks.nonce,
      });
      return { url: url.href, checks };
    },

    /**
     * Checks the provider's answer at the callback (`currentUrl`, as seen at PUBLIC_URL), trades its code for
     * tokens and reads who signed in from the ID token, or from the userinfo endpoint when the ID token holds no
     * email (many providers put only `sub` there).
     */
    async finish(currentUrl: URL, checks: FlowChecks): Promise<ProviderIdentity> {
      const config = await configuration();
      // openid-client checks it too; checked here first, a browser's wrong state is told apart from a provider's fault.
      if (currentUrl.searchParams.get('state') !== checks.state) throw new SignInRefused('the state does not match this sign-in');
      try {
        const tokens = await client.authorizationCodeGrant(config, currentUrl, {
          pkceCodeVerifier: checks.verifier,
          expectedState: checks.state,
          expectedNonce: checks.nonce,
          idTokenExpected: true,
        });
        const claims = tokens.claims()!;
        const said = typeof claims.email === 'string' ? claims : await client.fetchUserInfo(config, tokens.access_token, claims.sub);
        return {
          issuer: config.serverMetadata().issuer,
          subject: claims.sub,
          email: typeof said.email === 'string' ? said.email : null,
          emailVerified: said.email_verified === true,
        };
      } catch (error) {
        if (!broughtByBrowser(error)) tell('the token exchange', reasonOf(error));
        if (unreachable(error)) throw new ProviderUnavailable(`${oidc.issuer} could not be reached`, { cause: error });
        throw new SignInRefused(error instanceof Error ? error.message : 'the answer did not check out', { cause: error });
      }
    },
  };
}


/**
 * The client authentication of each token request, chosen from the provider's metadata as it is sent
 * (tokenEndpointAuthMethod); discovery refuses a provider that lists neither, so no request is sent to one.
 */
function clientAuthentication(secret: string): client.ClientAuth {
  const basic = client.ClientSecretBasic(secret);
  const post = client.ClientSecretPost(secret);
  return (as, metadata, body, headers) =>
    (tokenEndpointAuthMethod(as.token_endpoint_auth_methods_supported) === 'client_secret_post' ? post : basic)(as, metadata, body, headers);
}

/**
 * A failure the browser's callback brought rather than the provider: the person's refusal at the provider (its
 * `error` parameter, which anyone can write into the address) or a code the provider no longer takes (`invalid_grant`:
 * spent, expired, or another sign-in's). Not the operator's to hear of.
 */
function broughtByBrowser(error: unknown): boolean {
  if (error instanceof client.AuthorizationResponseError) return true;
  return error instanceof client.ResponseBodyError && error.error === 'invalid_grant';
}

/** A failure of the network or a timeout, as fetch reports them (openid-client passes them on, or wraps them). */
function unreachable(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (e.name === 'TimeoutError' || e.name === 'AbortError') return true;
    if (e instanceof TypeError && e.message === 'fetch failed') return true;
  }
  return false;
}
