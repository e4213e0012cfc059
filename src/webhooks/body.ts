/** A team's address of the moment (domains/directory.ts addresses): its primary domain's, or PUBLIC_URL. */
export type AddressOf = (teamId: string) => string;

/**
 * The body a delivery sends: the event's, fixed when it happened, with each link's short addresses added at its
 * team's address as the delivery goes out (a team that moved to its own domain meanwhile is shown there), as the
 * API's Link has them. Anything else is sent as it was written.
 */
export function deliveryBody(payload: string, addressOf: AddressOf): string {
  const event = JSON.parse(payload) as { data?: { link?: { teamId: string; code: string; name: string | null } } };
  const link = event.data?.link;
  if (link === undefined) return payload;
  const base = addressOf(link.teamId);
  Object.assign(link, { shortUrl: `${base}/${link.code}`, nameUrl: link.name === null ? null : `${base}/${link.name}` });
  return JSON.stringify(event);
}

