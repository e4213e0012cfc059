/** The server's `instructions` at initialize: where links live, so an assistant can tell a person their address. */
export function instructionsFor(publicUrl: string): string {
  return (
    "Short links for the signed-in person's teams. Start with myTeams to find a team id. Links are reached by their " +
    `7-character code: the short link is ${publicUrl}/<code>, or ${publicUrl}/<name> when it has a name, and its QR ` +
    `code is ${publicUrl}/<code>/qr; results that return links name these addresses in their text. Always ask the ` +
    'person before deleting a link.'
  );
}
