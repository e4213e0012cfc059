/**
 * A postgres:// URL as the operator may see it. The URL may hold a password (in its user part or a `password`
 * parameter), so what is printed is only where it points: host (with port) and database.
 */
export interface PostgresUrl {
  url: string;
  /** `host[:port]/database`: safe to print. */
  name: string;
  /** What scrub() removes from a message: the URL itself and its password, as written and as decoded. */
  secrets: string[];
}

/** Parses a postgres:// (or postgresql://) URL naming a database; null when it is not one. */
export function parsePostgresUrl(text: string): PostgresUrl | null {
  if (!/^postgres(ql)?:\/\//.test(text)) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  const database = decode(url.pathname.slice(1));
  if (database === '') return null;
  // No host in the authority: a Unix socket folder given as ?host=/run/postgresql, or the default (localhost).
  const host = decode(url.host) || url.searchParams.get('host') || 'localhost';
  const secrets = [url.password, decode(url.password), url.searchParams.get('password') ?? ''].filter(Boolean);
  return { url: text, name: `${host}/${database}`, secrets: [text, ...secrets] };
}

/** `message` with the URL and its password replaced, so an error from the driver can be shown as it is. */
export function scrub(message: string, target: PostgresUrl): string {
  let safe = message;
  // The longest first: the whole URL before the password inside it.
  for (const secret of [...target.secrets].sort((a, b) => b.length - a.length)) safe = safe.split(secret).join('***');
  return safe;
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
