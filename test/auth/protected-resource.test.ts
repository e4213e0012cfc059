import { describe, expect, it } from 'vitest';
import { isOurResource, protectedResource } from '../../src/auth/protected-resource.js';

describe('the protected resource assistants are given (RFC 9728)', () => {
  it('is PUBLIC_URL/mcp, its metadata at the well-known path inserted before the resource path', () => {
    expect(protectedResource('https://links.example.com')).toEqual({
      resource: 'https://links.example.com/mcp',
      resourceMetadata: 'https://links.example.com/.well-known/oauth-protected-resource/mcp',
    });
  });

  it('keeps the port, and a PUBLIC_URL path goes after the well-known segment, not before it', () => {
    expect(protectedResource('http://localhost:8080/')).toEqual({
      resource: 'http://localhost:8080/mcp',
      resourceMetadata: 'http://localhost:8080/.well-known/oauth-protected-resource/mcp',
    });
    expect(protectedResource('https://example.com/links//').resourceMetadata).toBe(
      'https://example.com/.well-known/oauth-protected-resource/links/mcp',
    );
  });

  it('takes a resource a client sends with one trailing slash as ours, and nothing else', () => {
    const { resource } = protectedResource('https://links.example.com');
    expect(isOurResource('https://links.example.com/mcp/', resource)).toBe(true);
    expect(isOurResource('https://links.example.com/mcp//', resource)).toBe(false);
    expect(isOurResource('https://links.example.com/', resource)).toBe(false);
  });
});
