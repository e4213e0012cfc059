import { describe, expect, it } from 'vitest';
import { mcpOperationOf } from '../../src/mcp/operation-name.js';

describe('what an /mcp request is called in the log and the metrics', () => {
  it('a call of one of our tools by its name, any other request by its method', () => {
    expect(mcpOperationOf('POST', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'createLink' } })).toBe('createLink');
    expect(mcpOperationOf('POST', { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} })).toBe('initialize');
    expect(mcpOperationOf('POST', { jsonrpc: '2.0', method: 'notifications/initialized' })).toBe('notifications/initialized');
    expect(mcpOperationOf('POST', { jsonrpc: '2.0', id: 7, result: { action: 'accept' } })).toBe('answer');
    expect(mcpOperationOf('GET', undefined)).toBe('GET');
    expect(mcpOperationOf('DELETE', undefined)).toBe('DELETE');
  });

  it('never a name the client made up: those are tools/call, other or batch', () => {
    expect(mcpOperationOf('POST', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'sl_secret_token_pasted' } })).toBe('tools/call');
    expect(mcpOperationOf('POST', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 42 } })).toBe('tools/call');
    expect(mcpOperationOf('POST', { jsonrpc: '2.0', id: 1, method: 'sl_secret/method' })).toBe('other');
    expect(mcpOperationOf('POST', [{ jsonrpc: '2.0', id: 1, method: 'ping' }])).toBe('batch');
    expect(mcpOperationOf('POST', 'text')).toBe('other');
    expect(mcpOperationOf('PUT', undefined)).toBe('other');
  });
});
