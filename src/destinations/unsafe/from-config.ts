import type { Config } from '../../config.js';
import { listFileProvider } from './list-file.js';
import { unsafeSitesCheck, type UnsafeSiteProvider, type UnsafeSitesCheck, type UnsafeSitesOptions } from './provider.js';
import { safeBrowsingProvider } from './safe-browsing.js';

/**
 * The rule-6 check the operator configured: the list file (UNSAFE_LIST_FILE) and Google Safe Browsing
 * (SAFE_BROWSING_API_KEY, at SAFE_BROWSING_URL), either or both. Undefined when neither is set: the rule is then
 * skipped, as the README says.
 */
export function unsafeSitesFromConfig(
  config: Pick<Config, 'unsafeListFile' | 'safeBrowsingApiKey' | 'safeBrowsingUrl'>,
  options: UnsafeSitesOptions = {},
): UnsafeSitesCheck | undefined {
  const providers: UnsafeSiteProvider[] = [];
  if (config.unsafeListFile) providers.push(listFileProvider({ path: config.unsafeListFile, log: options.log }));
  if (config.safeBrowsingApiKey) {
    providers.push(safeBrowsingProvider({ apiKey: config.safeBrowsingApiKey, url: config.safeBrowsingUrl }));
  }
  return providers.length > 0 ? unsafeSitesCheck(providers, options) : undefined;
}
