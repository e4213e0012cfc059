import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

/** Debian's caddy (`apt-get install caddy`, 2.6), running a Caddyfile of a test's in a folder of its own. */
export interface Caddy {
  /** The loopback port of its HTTPS sites. */
  httpsPort: number;
  /** The root certificate (PEM) of its internal authority (`local_certs`), which signs every certificate it serves. */
  rootCertificate: string;
  stop(): Promise<void>;
}

/** Stops any caddy of this worker still running as the worker exits, so none outlives the test run. */
const running = new Set<ChildProcess>();
process.on('exit', () => {
  // TERM, not KILL: `timeout` (below) passes a TERM on to caddy, and a KILL would leave caddy behind it.
  for (const child of running) child.kill('SIGTERM');
});

/**
 * Starts caddy with `sites` (Caddyfile site blocks) after global options that keep it to the test: every listener
 * on 127.0.0.1 and free ports, no admin endpoint, certificates from its own authority (never ACME, so no internet),
 * no attempt to install that authority in the machine's trust store, and everything it writes (storage,
 * autosaved config, HOME) in a temporary folder removed by stop(). `globals` adds global options; `httpsPort` is
 * for a test that must name the port before caddy starts (in PUBLIC_URL). Fails, never skips, when caddy is not
 * installed.
 */
export async function startCaddy(sites: string, { globals = '', ...ports }: { globals?: string; httpsPort?: number } = {}): Promise<Caddy> {
  if (spawnSync('caddy', ['version']).status !== 0) throw new Error('caddy is not installed: apt-get install caddy');
  const dir = mkdtempSync(join(tmpdir(), 'shortlinks-caddy-'));
  const httpPort = await freePort();
  const httpsPort = ports.httpsPort ?? (await freePort());
  const storage = join(dir, 'data');
  const caddyfile = join(dir, 'Caddyfile');
  // HTTP/3 left out: it would listen on UDP, which no test uses. OCSP stapling is off: the internal authority has no
  // responder, and caddy would warn about it for every certificate.
  writeFileSync(
    caddyfile,
    `{
	admin off
	default_bind 127.0.0.1
	http_port ${httpPort}
	https_port ${httpsPort}
	local_certs
	skip_install_trust
	ocsp_stapling off
	storage file_system {
		root ${storage}
	}
	servers {
		protocols h1 h2
	}
${globals}
}
${sites}
`,
  );
  const home = join(dir, 'home');
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config') };
  // `timeout` ends caddy after five minutes even if this worker is killed before its exit handler can: a ceiling
  // far above the few seconds a test keeps it. It passes a TERM on to caddy, which
  // exits once its open connections close (a test closes its own).
  const child = spawn('timeout', ['300', 'caddy', 'run', '--config', caddyfile, '--adapter', 'caddyfile'], { env, cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  running.add(child);
  // Its JSON log, for the error when it does not start.
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => running.delete(child));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const root = join(storage, 'pki', 'authorities', 'local', 'root.crt');
  try {
    // Ready once its HTTPS port accepts connections; its authority was made before it began to listen.
    const deadline = Date.now() + 10_000;
    while (!(await accepts(httpsPort)) || !existsSync(root)) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`caddy exited (${child.exitCode ?? child.signalCode})`);
      if (Date.now() > deadline) throw new Error('caddy did not listen within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return { httpsPort, rootCertificate: readFileSync(root, 'utf8'), stop };
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${log}`);
  }
}

/** Whether something listens on the loopback port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
