import type { IncomingMessage } from 'node:http';
import { isbot } from 'isbot';
import type { VisitClass } from '../domain/analytics.js';
import { agentProfile, agentTraits, type AgentProfile, type AgentTraits } from './agent.js';

export type { VisitClass } from '../domain/analytics.js';

/** One regular expression of a list of names (as fragments of expressions), matched anywhere, case aside. */
const anyOf = (names: readonly string[]) => new RegExp(names.join('|'), 'i');

/**
 * Uptime monitors and mail link scanners: they fetch a link to see that it works or is safe, not to follow it.
 * Names as each service documents its User-Agent, and as mail scanners announce themselves where they do; scanners
 * that pose as a browser cannot be told from one, and count as clicks.
 */
const CHECKERS = anyOf([
  'UptimeRobot', // UptimeRobot
  'Pingdom', // Pingdom (Pingdom.com_bot, PingdomTMS)
  'StatusCake', // StatusCake
  'Better ?Uptime', // Better Stack's "Better Uptime Bot"
  'Site24x7', // Zoho's Site24x7
  'Uptime-Kuma', // Uptime Kuma, self-hosted
  'Freshping', // Freshworks' FreshpingBot
  'Datadog/Synthetics', // Datadog's synthetic tests
  'Checkly', // Checkly
  'Barracuda', // Barracuda Sentinel (mail protection)
  'Mimecast', // Mimecast URL Protect
  'Proofpoint', // Proofpoint URL Defense
  'SafeLinks', // Microsoft Defender for Office 365 Safe Links
  'Microsoft-URLAnalyzer', // Microsoft's URL detonation
]);

/**
 * Fetchers an AI assistant sends for one person's request, as each vendor's crawler documentation names them.
 * Their crawlers for training and search (GPTBot, ClaudeBot, PerplexityBot...) are bots.
 */
const ASSISTANTS = anyOf([
  'ChatGPT-User', // OpenAI
  'Claude-User', // Anthropic
  'Perplexity-User', // Perplexity
  'MistralAI-User', // Mistral AI (Le Chat)
  'Google-NotebookLM', // Google NotebookLM, fetching a source a person added
  'Meta-ExternalFetcher', // Meta AI, fetching a link a person gave it
]);

/**
 * Link-preview fetchers of chats and social sites, which fetch a link once when it is posted, to draw its card.
 * Applebot is Apple's search crawler (Siri, Spotlight), so a bot; iMessage's previews name facebookexternalhit.
 */
const PREVIEWS = anyOf([
  'Slackbot', // Slack (Slackbot-LinkExpanding)
  'Slack-ImgProxy', // Slack's image proxy
  'facebookexternalhit', // Facebook, Messenger, Instagram; iMessage sends it too, with Facebot and Twitterbot
  'Facebot', // Facebook
  'Twitterbot', // X
  'WhatsApp', // WhatsApp
  'TelegramBot', // Telegram
  'Discordbot', // Discord
  'LinkedInBot', // LinkedIn
  'SkypeUriPreview', // Skype and Teams
  'Microsoft ?Preview', // Outlook and Teams (MicrosoftPreview)
  'Iframely', // Iframely, the cards of Notion, Medium, Atlassian...
  'Embedly', // Embedly
  'redditbot', // Reddit
  'Pinterestbot', // Pinterest
  '\\bMastodon/', // each Mastodon server: `http.rb/… (Mastodon/4.x; +https://server/)`
  'Bluesky Cardyb', // Bluesky
  'Snap URL Preview', // Snapchat
  'Mattermost-Bot', // Mattermost
  'Synapse \\(bot', // Matrix servers (Synapse)
]);

/** The User-Agent of a connection's last visit and what is known of it, kept on the connection (a socket) itself. */
const LAST_AGENT = Symbol('last User-Agent');
const LAST_PROFILE = Symbol('last profile');
type Remembering = object & { [LAST_AGENT]?: string; [LAST_PROFILE]?: AgentProfile };

/**
 * The class of a visit, in this order: `checker` (not a GET, a prefetch, prerender or preview announced, no
 * User-Agent, an uptime monitor or mail scanner), `assistant`, `preview`, `bot` (isbot's maintained list, which
 * holds most of the above too, hence the order), else `counted`: a GET from a person's browser.
 */
export function visitClass(req: IncomingMessage, formPosted = false): VisitClass {
  // A link's password form posts to the short address: that POST, answered with the redirect, is the visit.
  if (req.method !== (formPosted ? 'POST' : 'GET')) return 'checker';
  const { headers } = req;
  // A browser's visit sends none of these: each is looked at only when present.
  if (
    announcesPrefetch(headers['sec-purpose']) ||
    announcesPrefetch(headers['purpose']) ||
    announcesPrefetch(headers['x-purpose']) ||
    announcesPrefetch(headers['x-moz'])
  ) {
    return 'checker';
  }
  const agent = headers['user-agent'];
  if (agent === undefined || agent === '') return 'checker';
  return agentClass(agent, req.socket);
}

function announcesPrefetch(value: string | string[] | undefined): boolean {
  return value !== undefined && /prefetch|prerender|preview/i.test(String(value));
}

/**
 * The visits on one kept-alive connection come from one browser, with one User-Agent: comparing it with the last
 * one costs less than hashing its hundred-odd characters for the lookup (2% of a redirect's CPU in a profile).
 * isbot runs one large regular expression, so a string's class is remembered with its traits (agent.ts).
 */
function profileOf(agent: string, connection: Remembering): AgentProfile {
  if (connection[LAST_AGENT] === agent) return connection[LAST_PROFILE]!;
  const profile = agentProfile(agent);
  connection[LAST_AGENT] = agent;
  connection[LAST_PROFILE] = profile;
  return profile;
}

function agentClass(agent: string, connection: Remembering): VisitClass {
  const profile = profileOf(agent, connection);
  return (profile.kind ??= classOfAgent(agent));
}

/** The device, browser and OS of a counted visit (one with a User-Agent), from what its connection remembers. */
export function visitTraits(req: IncomingMessage): AgentTraits {
  const agent = req.headers['user-agent']!;
  return agentTraits(agent, profileOf(agent, req.socket));
}

/** The class a User-Agent names, uncached. */
export function classOfAgent(agent: string): VisitClass {
  if (CHECKERS.test(agent)) return 'checker';
  if (ASSISTANTS.test(agent)) return 'assistant';
  if (PREVIEWS.test(agent)) return 'preview';
  return isbot(agent) ? 'bot' : 'counted';
}
