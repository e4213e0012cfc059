import { protectedResource } from '../auth/protected-resource.js';

/**
 * Every address the OAuth pieces name, from PUBLIC_URL (which has no trailing slash). `issuer` is the one issuer
 * string, byte for byte, everywhere: metadata `issuer`, PRM `authorization_servers` and `iss` on redirects.
 */
export interface OAuthAddresses {
  issuer: string;
  /** The protected resource: `PUBLIC_URL/mcp`. */
  resource: string;
  /** Its protected resource metadata (RFC 9728), path form; also served at the root form. */
  resourceMetadata: string;
  authorize: string;
  token: string;
  register: string;
  revoke: string;
}

export function oauthAddresses(publicUrl: string): OAuthAddresses {
  const issuer = publicUrl.replace(/\/+$/, '');
  return {
    issuer,
    ...protectedResource(issuer),
    authorize: `${issuer}/authorize`,
    token: `${issuer}/token`,
    register: `${issuer}/register`,
    revoke: `${issuer}/revoke`,
  };
}
