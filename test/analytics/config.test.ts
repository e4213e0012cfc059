import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { packageRoot } from '../../src/paths.js';

describe('ANALYTICS and GEOIP_DATABASE', () => {
  it('turns analytics on by default, off with ANALYTICS=off, and refuses any other word', () => {
    expect(loadConfig({}).analytics).toBe(true);
    expect(loadConfig({ ANALYTICS: 'on' }).analytics).toBe(true);
    expect(loadConfig({ ANALYTICS: 'off' }).analytics).toBe(false);
    expect(() => loadConfig({ ANALYTICS: 'no' })).toThrow(/^Bad configuration: ANALYTICS: Invalid option: expected one of "on"\|"off"$/);
  });

  it('takes the shipped DB-IP file unless GEOIP_DATABASE names a readable file (a relative path from the installation)', () => {
    expect(loadConfig({}).geoipDatabase).toBeUndefined();
    expect(loadConfig({ GEOIP_DATABASE: 'package.json' }).geoipDatabase).toBe(join(packageRoot, 'package.json'));
    expect(() => loadConfig({ GEOIP_DATABASE: '/nowhere/GeoLite2-Country.mmdb' })).toThrow(
      /^Bad configuration: GEOIP_DATABASE: cannot read \/nowhere\/GeoLite2-Country\.mmdb \(no such file\)$/,
    );
  });
});
