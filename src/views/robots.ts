/**
 * robots.txt, on PUBLIC_URL and on every team's domain alike. Short links live at the root, so crawlers are kept
 * from all of it but the home page (`/$` is the root alone, as RFC 9309 reads `$`): no search engine lists a short
 * link in its destination's place.
 */
export const ROBOTS_TXT = 'User-agent: *\nAllow: /$\nDisallow: /\n';
