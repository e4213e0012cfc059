/**
 * The short address people share for a link: by its name when it has one, else by its code (a list of links, a
 * CSV export and a breakdown by link name each link so), at `base`: PUBLIC_URL, or the team's primary domain.
 */
export function shortLinkOf(base: string, link: { code: string; name: string | null }): string {
  return `${base}/${link.name ?? link.code}`;
}
