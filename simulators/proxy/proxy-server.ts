/**
 * A real forward HTTP proxy with basic auth, standing in for the residential proxy in dev and
 * tests. Built on the `proxy` package: it forwards absolute-form HTTP requests and tunnels
 * CONNECT, and answers 407 to missing or wrong credentials. A fault set with `setFault()` makes
 * it fail the way a residential proxy does, for every request until it is cleared.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createProxy } from 'proxy';
import { RequestLog } from '../request-log.js';

export interface ProxyLogEntry {
  method: string;
  /** `host:port` of the target. */
  host: string;
  /** Path and query for absolute-form requests; undefined for CONNECT (the tunnel hides it). */
  path: string | undefined;
  /** Whether the credentials were accepted. Credentials themselves are never logged. */
  authorized: boolean;
}

/**
 * Every way the proxy can be made to fail, as a list so that tests can enumerate them:
 * - auth_rejected: 407 even to the right credentials (an expired or blocked proxy account);
 * - drop: the connection is closed before anything is read (proxy unreachable or reset);
 * - stall: the request is read and never answered (a hung proxy).
 */
export const PROXY_FAULT_TYPES = ['auth_rejected', 'drop', 'stall'] as const;

export type ProxyFaultType = (typeof PROXY_FAULT_TYPES)[number];

export interface ProxyOptions {
  username: string;
  password: string;
  host?: string;
  port?: number;
}

export interface ProxySimulator {
  /** Proxy URL without credentials, e.g. `http://127.0.0.1:40000`. */
  url: string;
  close(): Promise<void>;
  log(): ProxyLogEntry[];
  clearLog(): void;
  /** Makes every following request fail this way; undefined restores normal service. */
  setFault(fault: ProxyFaultType | undefined): void;
}

function target(req: IncomingMessage): { host: string; path: string | undefined } {
  if (req.method === 'CONNECT') return { host: req.url ?? '', path: undefined };
  try {
    const u = new URL(req.url ?? '');
    return { host: u.host, path: u.pathname + u.search };
  } catch {
    return { host: req.headers.host ?? '', path: req.url };
  }
}

function credentialsMatch(req: IncomingMessage, username: string, password: string): boolean {
  const header = req.headers['proxy-authorization'];
  if (typeof header !== 'string' || !/^basic /i.test(header)) return false;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 && decoded.slice(0, colon) === username && decoded.slice(colon + 1) === password;
}

/** Starts the proxy on 127.0.0.1 (port 0 = any free port). */
export async function startProxy(opts: ProxyOptions): Promise<ProxySimulator> {
  const entries = new RequestLog<ProxyLogEntry>();
  let fault: ProxyFaultType | undefined;
  const sockets = new Set<Socket>();
  const server = createProxy(createServer());
  server.authenticate = (req) => {
    const authorized = fault !== 'auth_rejected' && credentialsMatch(req, opts.username, opts.password);
    entries.push({ method: req.method ?? '', ...target(req), authorized });
    if (fault !== 'stall') return authorized;
    // Never answered; settled (as a refusal nobody reads) once the client hangs up.
    return new Promise<boolean>((resolve) => req.socket.once('close', () => resolve(false)));
  };
  // CONNECT sockets leave the HTTP server's bookkeeping, so track every socket for close().
  server.on('connection', (socket: Socket) => {
    if (fault === 'drop') {
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', resolve));
  const { port, address } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
    log: () => entries.entries().map((e) => ({ ...e })),
    clearLog: () => {
      entries.clear();
    },
    setFault: (next) => {
      fault = next;
    },
  };
}
