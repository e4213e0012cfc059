import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

describe('LOG_LEVEL, METRICS_PORT and METRICS_HOST', () => {
  it('log at info, serve no metrics, and keep a metrics listener to loopback, unless told otherwise', () => {
    expect(loadConfig({})).toMatchObject({ logLevel: 'info', metricsPort: undefined, metricsHost: '127.0.0.1' });
    expect(loadConfig({ LOG_LEVEL: 'debug', METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' })).toMatchObject({
      logLevel: 'debug',
      metricsPort: 9464,
      metricsHost: '0.0.0.0',
    });
  });

  it('refuse a level pino does not have and a port that is not one', () => {
    expect(() => loadConfig({ LOG_LEVEL: 'verbose' })).toThrow(/^Bad configuration: LOG_LEVEL: /);
    for (const port of ['65536', '-1', 'nine', '9.5']) expect(() => loadConfig({ METRICS_PORT: port })).toThrow(/^Bad configuration: METRICS_PORT: /);
  });
});
