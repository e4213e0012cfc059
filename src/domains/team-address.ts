import { domainBase, showsLinks } from '../domain/custom-domain.js';
import type { DomainStore } from '../store/ports.js';

/**
 * Where a team's links are shown, read from the store: its primary domain while verified, else `publicUrl`. For a
 * process that keeps no directory of domains (the CLI); a server asks its directory (directory.ts).
 */
export async function teamAddress(domains: Pick<DomainStore, 'list'>, teamId: string, publicUrl: string): Promise<string> {
  const shown = (await domains.list(teamId)).find(showsLinks);
  return shown ? domainBase(shown.domain) : publicUrl;
}
