import { getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/server';

/**
 * The protected resource (RFC 9728) this service is to assistants: `PUBLIC_URL/mcp`, and where its metadata is.
 * The resource server checks tokens against it; the authorization server issues tokens for it.
 */
export interface ProtectedResource {
  resource: string;
  /** Its protected resource metadata, path form; also served at the root form. */
  resourceMetadata: string;
}

export function protectedResource(publicUrl: string): ProtectedResource {
  const resource = `${publicUrl.replace(/\/+$/, '')}/mcp`;
  return { resource, resourceMetadata: getOAuthProtectedResourceMetadataUrl(new URL(resource)) };
}

/** RFC 8707 `resource` as clients send it: ours when equal to `resource` but for one trailing slash. */
export function isOurResource(given: string, resource: string): boolean {
  return given === resource || given === `${resource}/`;
}
