/**
 * The short address people share for a link: by its name when it has one, else by its code (a list of links, a
 * CSV export and a breakdown by link name each link so).
 */
export function shortLinkOf(publicUrl: string, link: { code: string; name: string | null }): string {
  return `${publicUrl}/${link.name ?? link.code}`;
}
