/**
 * A real DNS server on loopback (UDP, dns2) serving a zone made up for the tests, so the destination checks can
 * be pointed at it and no test needs the internet. Names are matched case-insensitively, as DNS does.
 */
import dns2, { type DnsHandler } from 'dns2';

const { Packet } = dns2;
// Response codes (RFC 1035 §4.1.1); dns2 has them as Packet.RCODE but its types leave them out.
const RCODE = { SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;

/** A made-up zone of its own, so no name here can be confused with a real site. */
export const ZONE = 'dns-test.net';

/**
 * What the server does for a name: answer these records, or answer with an error code, or never answer. A test may
 * change the names it handed in while the server runs (a TXT record published, then gone).
 */
export type Entry = { a?: string[]; aaaa?: string[]; txt?: string[]; ttl?: number } | 'nxdomain' | 'servfail' | 'refused' | 'silent';

const PUBLIC = { a: ['93.184.216.34'], aaaa: ['2606:2800:220:1::'] };

/**
 * The zone: full names (lowercase, punycode, no trailing dot) to entries.
 * Every `private-*` name resolves to at least one non-public address.
 */
export const NAMES: Record<string, Entry> = {
  [`public.${ZONE}`]: PUBLIC,
  [`v4only.${ZONE}`]: { a: ['93.184.216.34'] },
  [`v6only.${ZONE}`]: { aaaa: ['2606:2800:220:1::'] },
  [`long-ttl.${ZONE}`]: { ...PUBLIC, ttl: 86_400 },
  [`short-ttl.${ZONE}`]: { ...PUBLIC, ttl: 30 },
  [`private-ten.${ZONE}`]: { a: ['10.1.2.3'] },
  [`private-loopback.${ZONE}`]: { a: ['127.0.0.1'] },
  [`private-metadata.${ZONE}`]: { a: ['169.254.169.254'] },
  [`private-cgnat.${ZONE}`]: { a: ['100.64.1.1'] },
  [`private-ula.${ZONE}`]: { aaaa: ['fd00::1'] },
  // dns2 writes AAAA records from hex groups only: ::ffff:7f00:1 is ::ffff:127.0.0.1, 64:ff9b::a00:1 is NAT64 of
  // 10.0.0.1.
  [`private-mapped.${ZONE}`]: { aaaa: ['::ffff:7f00:1'] },
  [`private-nat64.${ZONE}`]: { aaaa: ['64:ff9b::a00:1'] },
  [`private-testnet.${ZONE}`]: { a: ['192.0.2.1'] },
  [`private-mixed.${ZONE}`]: { a: ['93.184.216.34', '10.0.0.1'] },
  [`private-mixed-families.${ZONE}`]: { a: ['93.184.216.34'], aaaa: ['::1'] },
  // IDN: "bücher-private" as the checker normalizes it.
  [`xn--bcher-private-wob.${ZONE}`]: { a: ['192.168.1.1'] },
  // A name that exists with no address at all (NOERROR, empty answer: ENODATA for both families).
  [`no-address.${ZONE}`]: {},
  [`missing.${ZONE}`]: 'nxdomain',
  [`broken.${ZONE}`]: 'servfail',
  [`refused.${ZONE}`]: 'refused',
  [`silent.${ZONE}`]: 'silent',
  // A link shortener (data/shorteners.txt) that resolves private: rule 3 must answer before rule 4.
  'bit.ly': { a: ['10.9.9.9'] },
};

export interface DnsServer {
  /** For Resolver.setServers / dnsResolver({ servers }). */
  servers: string[];
  /** The UDP port it answers on. */
  port: number;
  /** Every question received, in order, as "name type" ("public.dns-test.net A"). */
  queries: string[];
  close(): Promise<void>;
}

/**
 * Starts the server on 127.0.0.1 (or `address`: 0.0.0.0 for containers, which reach the host through their
 * network's gateway) and a free port. A name not in `names` gets `otherwise`: NXDOMAIN unless told, or, say,
 * `{ a: ['93.184.216.34'] }` for a server that lets every other name (example.com, ...) resolve public.
 */
export async function startDnsServer(
  names: Record<string, Entry> = NAMES,
  otherwise: Entry = 'nxdomain',
  address = '127.0.0.1',
): Promise<DnsServer> {
  const queries: string[] = [];
  const handle: DnsHandler = (request, send) => {
    const response = Packet.createResponseFromRequest(request);
    const question = request.questions[0];
    if (!question) return void send(response);
    const name = question.name.toLowerCase().replace(/\.$/, '');
    const type = question.type === Packet.TYPE.A ? 'A' : question.type === Packet.TYPE.AAAA ? 'AAAA' : question.type === Packet.TYPE.TXT ? 'TXT' : String(question.type);
    queries.push(`${name} ${type}`);
    const entry = names[name] ?? otherwise;
    // Never answering makes the resolver time out, as with a dead or filtered name server.
    if (entry === 'silent') return;
    if (entry === 'nxdomain') response.header.rcode = RCODE.NXDOMAIN;
    else if (entry === 'servfail') response.header.rcode = RCODE.SERVFAIL;
    else if (entry === 'refused') response.header.rcode = RCODE.REFUSED;
    else {
      const addresses = type === 'A' ? (entry.a ?? []) : type === 'AAAA' ? (entry.aaaa ?? []) : [];
      for (const address of addresses) {
        response.answers.push(Packet.createResourceFromQuestion(question, { class: Packet.CLASS.IN, ttl: entry.ttl ?? 300, address }));
      }
      // A TXT record each (the proofs of teams' domains: domain/custom-domain.ts).
      for (const data of type === 'TXT' ? (entry.txt ?? []) : []) {
        response.answers.push(Packet.createResourceFromQuestion(question, { class: Packet.CLASS.IN, ttl: entry.ttl ?? 300, data }));
      }
    }
    response.header.aa = 1;
    void send(response);
  };
  const server = dns2.createServer({ udp: true, tcp: false, handle });
  const { udp } = await server.listen({ udp: { port: 0, address } });
  return {
    servers: [`${address}:${udp!.port}`],
    port: udp!.port,
    queries,
    close: async () => {
      await server.close();
    },
  };
}
