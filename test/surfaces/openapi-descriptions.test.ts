import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/http-facade/openapi.js';

type Json = Record<string, any>;

describe('OpenAPI descriptions', () => {
  const doc = openApiDocument('https://sho.rt') as Json;
  const described = (operation: string): string => doc.paths[`/${operation}`].post.description;

  it("name the service's address, never the placeholder", () => {
    expect(JSON.stringify(doc)).not.toContain('PUBLIC_URL');
    expect(described('createLink')).toContain('https://sho.rt/<code> (and https://sho.rt/<name>');
    expect(described('createLink')).toContain('https://sho.rt/<code>/qr is its QR code');
  });

  it('name the default limits, and say they are the defaults', () => {
    expect(described('createLink')).toContain(
      'A team holds at most 25 links and may make 20 an hour and 100 a day (10 a day in its first week).',
    );
    expect(described('setDestination')).toContain('A team may make 60 changes an hour');
    expect(doc.info.description).toContain("Limits named in descriptions are the defaults; this service's operator may set others");
  });
});
