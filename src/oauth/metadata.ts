import type { OAuthMetadata, OAuthProtectedResourceMetadata } from '@modelcontextprotocol/server';
import { SCOPES_SUPPORTED } from '../auth/scopes.js';
import type { OAuthAddresses } from './addresses.js';

const CLIENT_AUTH_METHODS = ['none', 'client_secret_post', 'client_secret_basic'];

/**
 * Authorization server metadata (RFC 8414), served at `/.well-known/oauth-authorization-server` and at the
 * OpenID discovery address. Built here rather than with the SDK's createOAuthMetadata, which appends "/" to the
 * issuer (A2) and has no place for the metadata-document and `iss` flags.
 */
export function authorizationServerMetadata(addresses: OAuthAddresses): OAuthMetadata & Record<string, unknown> {
  return {
    issuer: addresses.issuer,
    authorization_endpoint: addresses.authorize,
    token_endpoint: addresses.token,
    registration_endpoint: addresses.register,
    revocation_endpoint: addresses.revoke,
    scopes_supported: [...SCOPES_SUPPORTED],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    code_challenge_methods_supported: ['S256'],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
  };
}

/**
 * Protected resource metadata (RFC 9728) of `PUBLIC_URL/mcp`, served at the path form
 * (`/.well-known/oauth-protected-resource/mcp`) and the root form. The SDK's mcpAuthMetadataRouter serves only
 * the path form and refuses an http issuer other than localhost, so these few lines are ours.
 */
export function protectedResourceMetadata(addresses: OAuthAddresses): OAuthProtectedResourceMetadata {
  return {
    resource: addresses.resource,
    authorization_servers: [addresses.issuer],
    scopes_supported: [...SCOPES_SUPPORTED],
    bearer_methods_supported: ['header'],
    resource_name: 'shortlinks',
  };
}
