import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { classOfAgent, visitClass } from '../../src/analytics/visit-class.js';
import { ASSISTANTS, BOTS, BROWSERS, CHECKERS, PREVIEWS } from './user-agents.js';

function request(headers: Record<string, string>, method = 'GET', socket: object = {}): IncomingMessage {
  return { method, headers, socket } as unknown as IncomingMessage;
}

describe('the class of a visit', () => {
  it.each(Object.entries(BROWSERS))("counts a person's browser: %s", (_, agent) => {
    expect(visitClass(request({ 'user-agent': agent }))).toBe('counted');
  });

  it.each(Object.entries(CHECKERS))('takes an uptime monitor or mail scanner for a checker: %s', (_, agent) => {
    expect(visitClass(request({ 'user-agent': agent }))).toBe('checker');
  });

  it.each(Object.entries(ASSISTANTS))("takes an assistant's fetch for a person as an assistant's: %s", (_, agent) => {
    expect(visitClass(request({ 'user-agent': agent }))).toBe('assistant');
  });

  it.each(Object.entries(PREVIEWS))('takes a link-preview fetcher for a preview: %s', (_, agent) => {
    expect(visitClass(request({ 'user-agent': agent }))).toBe('preview');
  });

  it.each(Object.entries(BOTS))('takes a crawler or script for a bot: %s', (_, agent) => {
    expect(visitClass(request({ 'user-agent': agent }))).toBe('bot');
  });

  it('takes HEAD, prefetches, prerenders and previews announced, and a missing or empty User-Agent for checkers', () => {
    const agent = { 'user-agent': BROWSERS.chromeWindows };
    expect(visitClass(request(agent, 'HEAD'))).toBe('checker');
    expect(visitClass(request({ ...agent, 'sec-purpose': 'prefetch;prerender' }))).toBe('checker');
    expect(visitClass(request({ ...agent, purpose: 'prefetch' }))).toBe('checker');
    expect(visitClass(request({ ...agent, 'x-purpose': 'preview' }))).toBe('checker');
    expect(visitClass(request({ ...agent, 'x-moz': 'prefetch' }))).toBe('checker');
    expect(visitClass(request({}))).toBe('checker');
    expect(visitClass(request({ 'user-agent': '' }))).toBe('checker');
    // A method or purpose comes before the agent: a preview fetcher's HEAD is a checker's.
    expect(visitClass(request({ 'user-agent': PREVIEWS.slack }, 'HEAD'))).toBe('checker');
  });

  it('answers each visit on a kept-alive connection by its own User-Agent', () => {
    const socket = {};
    expect(visitClass(request({ 'user-agent': BROWSERS.safariMac }, 'GET', socket))).toBe('counted');
    expect(visitClass(request({ 'user-agent': BROWSERS.safariMac }, 'GET', socket))).toBe('counted');
    expect(visitClass(request({ 'user-agent': PREVIEWS.whatsApp }, 'GET', socket))).toBe('preview');
    expect(visitClass(request({ 'user-agent': BROWSERS.safariMac }, 'GET', socket))).toBe('counted');
  });

  it('puts a checker before an assistant, an assistant before a preview, a preview before a bot', () => {
    expect(classOfAgent(`${ASSISTANTS.claude} UptimeRobot/2.0`)).toBe('checker');
    expect(classOfAgent(`${PREVIEWS.slack} ChatGPT-User/1.0`)).toBe('assistant');
    expect(classOfAgent(PREVIEWS.discord)).toBe('preview'); // isbot says bot too
  });
});
