import type { IncomingHttpHeaders } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect, type PeerCertificate, type TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cryptoRandom } from '../../src/domain/random.js';
import { addDomain } from '../../src/domains/manage.js';
import { notFoundPage } from '../../src/redirect/pages.js';
import type { TeamDomain } from '../../src/store/ports.js';
import { startCaddy, type Caddy } from '../helpers/caddy.js';
import { call, freePort, startServer, type TestServer } from '../helpers/server.js';

/**
 * The README's Caddy configuration ("Custom domains") in front of the real service: Debian's caddy with its own
 * certificate authority in place of Let's Encrypt, names resolved to loopback by connecting to 127.0.0.1 and
 * sending the name in SNI and Host. Caddy asks the service's metrics listener before each certificate, so a team's
 * verified domain gets one and serves the team's links over https, while a pending domain and a name no team has
 * get none: their handshakes fail.
 */

const DESTINATION = 'https://example.com/acme/launch';
const NAME = 'acme-launch';

let server: TestServer;
let caddy: Caddy;
let code: string;
/** A link of another team, which the team's domain must not serve. */
let strangersCode: string;
let pending: TeamDomain;
/** `host:port` of the metrics listener, which answers the proxy's question. */
let metrics: string;

beforeAll(async () => {
  // PUBLIC_URL names caddy's HTTPS port, as a real one names 443, so that port is chosen first.
  const httpsPort = await freePort();
  server = await startServer({
    env: { PUBLIC_URL: `https://links.acme.test:${httpsPort}`, METRICS_PORT: String(await freePort()), TRUST_PROXY: '127.0.0.1' },
  });
  metrics = server.app.metricsAddress()!;
  const actor = await server.person({ teamName: 'Acme' });
  const deps = { store: server.app.ctx.store, publicUrl: server.app.ctx.config.publicUrl, random: cryptoRandom, clock: server.clock };
  await addDomain(deps, { teamId: actor.teamId, domain: 'go.acme.test', verified: true }, 'operator');
  pending = await addDomain(deps, { teamId: actor.teamId, domain: 'pending.acme.test' }, 'operator');
  const created = await call(server, 'createLink', { team: actor.teamId, destination: DESTINATION, name: NAME }, actor.token);
  expect(created.status).toBe(200);
  code = created.body.code;
  const stranger = await server.person({ teamName: 'Other' });
  const theirs = await call(server, 'createLink', { team: stranger.teamId, destination: 'https://example.com/other' }, stranger.token);
  expect(theirs.status).toBe(200);
  strangersCode = theirs.body.code;

  const service = server.url.replace('http://', '');
  // The README's configuration, with caddy's own authority (local_certs, set by startCaddy) for ACME.
  caddy = await startCaddy(
    `links.acme.test {
	reverse_proxy ${service}
}
https:// {
	tls {
		on_demand
	}
	reverse_proxy ${service}
}`,
    { httpsPort, globals: `\ton_demand_tls {\n\t\task http://${metrics}/tls/allowed\n\t}` },
  );
});

afterAll(async () => {
  await caddy?.stop();
  await server?.stop();
});

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** GET `path` from one of the service's own listeners (`base`), over plain http on loopback, as caddy's `ask` is sent. */
function plainGet(base: string, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, base), { agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * A TLS handshake with caddy for `name`, as a browser whose DNS sends `name` to this machine makes it: the
 * certificate must be for `name` and signed by caddy's authority (real verification, nothing turned off). Rejects
 * with the error the handshake ends in.
 */
async function handshake(name: string): Promise<TLSSocket> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await new Promise<TLSSocket>((resolve, reject) => {
        const socket = connect({ host: '127.0.0.1', port: caddy.httpsPort, servername: name, ca: caddy.rootCertificate });
        socket.once('secureConnect', () => resolve(socket));
        socket.once('error', reject);
      });
    } catch (error) {
      // A certificate caddy issues this very moment starts at the current second, read from the precise clock;
      // OpenSSL checks it against time(), which reads the kernel's coarse clock and lags it by up to a tick (4 ms
      // at 250 Hz). Issued and checked in the first milliseconds of a second, it is "not yet valid" for that long.
      if ((error as { code?: string }).code !== 'CERT_NOT_YET_VALID' || attempt === 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/** GET `https://<name>:<port><path>` through caddy, on a connection that passed handshake(name). */
async function httpsGet(name: string, path: string): Promise<Answer & { certificate: PeerCertificate }> {
  const socket = await handshake(name);
  const certificate = socket.getPeerCertificate();
  return new Promise((resolve, reject) => {
    const headers = { host: `${name}:${caddy.httpsPort}` };
    const req = httpsRequest({ path, headers, createConnection: () => socket }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => {
        socket.destroy();
        resolve({ status: res.statusCode!, headers: res.headers, body, certificate });
      });
    });
    // A connection left open would hold caddy's stop until its grace period ends.
    req.on('error', (error) => (socket.destroy(), reject(error)));
    req.end();
  });
}

describe("The service answers the proxy's question on its metrics listener", () => {
  it("allows PUBLIC_URL's host and a verified domain, refuses a pending domain and an unknown name, and wants a name", async () => {
    const ask = (query: string) => plainGet(`http://${metrics}`, `/tls/allowed${query}`);
    expect(await ask('?domain=links.acme.test')).toMatchObject({ status: 200, body: 'links.acme.test is served here.\n' });
    expect(await ask('?domain=go.acme.test')).toMatchObject({ status: 200, body: 'go.acme.test is served here.\n' });
    expect(await ask('?domain=pending.acme.test')).toMatchObject({ status: 404, body: 'Not a name this service serves.\n' });
    expect(await ask('?domain=stranger.example')).toMatchObject({ status: 404, body: 'Not a name this service serves.\n' });
    expect(await ask('')).toMatchObject({ status: 400, body: 'Ask with /tls/allowed?domain=NAME.\n' });
  });
});

describe('Caddy in front of the service, with on-demand TLS', () => {
  it("gets a verified domain a certificate for its name and follows the team's links there over https", async () => {
    const byCode = await httpsGet('go.acme.test', `/${code}`);
    expect({ status: byCode.status, location: byCode.headers.location, body: byCode.body }).toEqual({ status: 302, location: DESTINATION, body: '' });
    expect(byCode.certificate.subjectaltname).toBe('DNS:go.acme.test');
    expect(byCode.certificate.issuer.CN).toMatch(/^Caddy Local Authority/);
    const byName = await httpsGet('go.acme.test', `/${NAME}`);
    expect({ status: byName.status, location: byName.headers.location }).toEqual({ status: 302, location: DESTINATION });
  });

  it("answers another team's link on the domain with the not-found page", async () => {
    const answer = await httpsGet('go.acme.test', `/${strangersCode}`);
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 404, body: notFoundPage() });
  });

  it("serves the same links on PUBLIC_URL's host, from its own site block", async () => {
    const answer = await httpsGet('links.acme.test', `/${code}`);
    expect({ status: answer.status, location: answer.headers.location }).toEqual({ status: 302, location: DESTINATION });
    expect(answer.certificate.subjectaltname).toBe('DNS:links.acme.test');
  });

  it('refuses a certificate for a pending domain and for a name no team has: the handshake ends in an alert', async () => {
    // Caddy answers a refused `ask` with TLS alert 80 (internal error).
    const refused = { code: 'ERR_SSL_TLSV1_ALERT_INTERNAL_ERROR', message: expect.stringMatching(/tlsv1 alert internal error/) };
    await expect(handshake('pending.acme.test')).rejects.toMatchObject(refused);
    await expect(handshake('stranger.example')).rejects.toMatchObject(refused);
  });

  it('asks again at the next handshake, so a pending domain gets its certificate as soon as its TXT record proves it', async () => {
    // The refusal above was no verdict kept by caddy: the same name, once the service verifies it, gets a certificate.
    const proven = await server.app.ctx.store.domains.recordCheck(pending.domain, pending.token, 'found', server.clock.now());
    expect(proven?.state).toBe('verified');
    const answer = await httpsGet('pending.acme.test', `/${code}`);
    expect(answer.certificate.subjectaltname).toBe('DNS:pending.acme.test');
    expect({ status: answer.status, location: answer.headers.location }).toEqual({ status: 302, location: DESTINATION });
  });
});

describe("The question is not public: the service's public listener answers it only to this machine", () => {
  it('answers a loopback request that no proxy forwarded', async () => {
    const answer = await plainGet(server.url, '/tls/allowed?domain=go.acme.test');
    expect(answer).toMatchObject({ status: 200, body: 'go.acme.test is served here.\n' });
  });

  it("answers the same request through caddy, which forwards it with X-Forwarded-For, with the domain's not-found page", async () => {
    const answer = await httpsGet('go.acme.test', '/tls/allowed?domain=go.acme.test');
    expect({ status: answer.status, type: answer.headers['content-type'], body: answer.body }).toEqual({
      status: 404,
      type: 'text/html; charset=utf-8',
      body: notFoundPage(),
    });
  });
});
