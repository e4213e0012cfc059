/**
 * The first line the server prints once it serves: where it is reached and where it listens, and with WORKERS=N
 * how many processes serve. Printed once, by the single process or by the primary when every worker listens.
 */
export function serveLine(publicUrl: string, address: { address: string; port: number }, workers: number): string {
  const processes = workers > 1 ? `, ${workers} worker processes` : '';
  return `shortlinks serves ${publicUrl} (listening on ${address.address}:${address.port}${processes})`;
}
