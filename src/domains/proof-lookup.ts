import { Resolver } from 'node:dns/promises';
import { proofName, proofText, type ProofOutcome } from '../domain/custom-domain.js';

/** Looks for a domain's proof: whether `_shortlinks.<domain>` holds the token (domain/custom-domain.ts). */
export type LookForProof = (domain: string, token: string) => Promise<ProofOutcome>;

// No such name, or no TXT record at it: the proof is missing, which is an answer.
const NOT_FOUND = new Set(['ENODATA', 'ENOTFOUND']);

/**
 * TXT lookups through the service's resolver settings (`DNS_SERVERS`, the system's when empty; `DNS_TIMEOUT_MS` for
 * the whole lookup), as destinations are resolved (destinations/resolver.ts), so a test points both at its stand-in.
 * A record may be split in chunks of 255 characters; they are joined, and spaces around the text are ignored.
 */
export function proofLookup(options: { servers: string[]; timeoutMs: number }): LookForProof {
  const { timeoutMs } = options;
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  if (options.servers.length > 0) resolver.setServers(options.servers);

  return async (domain, token) => {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error('DNS lookup timed out'), { code: 'ETIMEOUT' })), timeoutMs);
    });
    try {
      const records = await Promise.race([resolver.resolveTxt(proofName(domain)), deadline]);
      const wanted = proofText(token);
      return records.some((chunks) => chunks.join('').trim() === wanted) ? 'found' : 'missing';
    } catch (error) {
      const code = String((error as NodeJS.ErrnoException).code ?? 'EUNKNOWN');
      return NOT_FOUND.has(code) ? 'missing' : { unanswered: code };
    } finally {
      clearTimeout(timer);
    }
  };
}
