import { describe, expect, it } from 'vitest';
import { hostAndPort, serveLine } from '../../src/support/serve-line.js';

describe('where the server says it listens', () => {
  it('writes an IPv4 host as it is, and an IPv6 host in brackets so its last group is not read as the port', () => {
    expect(hostAndPort({ address: '127.0.0.1', port: 3000 })).toBe('127.0.0.1:3000');
    expect(hostAndPort({ address: '::1', port: 3000 })).toBe('[::1]:3000');
    expect(hostAndPort({ address: '::', port: 3000 })).toBe('[::]:3000');
  });

  it('names the processes only when there are several', () => {
    expect(serveLine('https://s.example', { address: '::', port: 3000 }, 1)).toBe('shortlinks serves https://s.example (listening on [::]:3000)');
    expect(serveLine('https://s.example', { address: '0.0.0.0', port: 80 }, 4)).toBe(
      'shortlinks serves https://s.example (listening on 0.0.0.0:80, 4 worker processes)',
    );
  });
});
