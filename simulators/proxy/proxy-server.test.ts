import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProxyAgent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxy, type ProxySimulator } from './proxy-server.js';

let proxy: ProxySimulator;
let target: Server;
let targetHost = '';
const seen: { url: string; via: string | undefined }[] = [];
const token = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;

beforeAll(async () => {
  proxy = await startProxy({ username: 'alice', password: 'pw-1' });
  target = createServer((req, res) => {
    seen.push({ url: req.url ?? '', via: req.headers.via });
    res.end('hello');
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  targetHost = `127.0.0.1:${(target.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await proxy.close();
  await new Promise((r) => target.close(r));
});

describe('forward proxy with basic auth', () => {
  it('forwards absolute-form HTTP requests and logs host and path', async () => {
    proxy.clearLog();
    const agent = new ProxyAgent({ uri: proxy.url, token: token('alice', 'pw-1'), proxyTunnel: false });
    const res = await request(`http://${targetHost}/plain?x=1`, { dispatcher: agent });
    expect([res.statusCode, await res.body.text()]).toEqual([200, 'hello']);
    expect(proxy.log()).toEqual([{ method: 'GET', host: targetHost, path: '/plain?x=1', authorized: true }]);
    expect(seen.at(-1)?.via).toMatch(/proxy/);
    await agent.close();
  });

  it('tunnels CONNECT', async () => {
    proxy.clearLog();
    const agent = new ProxyAgent({ uri: proxy.url, token: token('alice', 'pw-1') });
    const res = await request(`http://${targetHost}/tunnelled`, { dispatcher: agent });
    expect(await res.body.text()).toBe('hello');
    expect(proxy.log()).toEqual([{ method: 'CONNECT', host: targetHost, path: undefined, authorized: true }]);
    expect(seen.at(-1)).toEqual({ url: '/tunnelled', via: undefined });
    await agent.close();
  });

  it('answers 407 to wrong or missing credentials', async () => {
    proxy.clearLog();
    const before = seen.length;
    // Absolute-form request straight to the proxy, to see the raw 407 answer.
    const { port } = new URL(proxy.url);
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port,
        path: `http://${targetHost}/denied`,
        headers: { host: targetHost, 'proxy-authorization': token('alice', 'nope') },
      });
      req.once('response', resolve).once('error', reject).end();
    });
    expect([res.statusCode, res.headers['proxy-authenticate']]).toEqual([407, 'Basic realm="proxy"']);
    res.resume();
    const none = new ProxyAgent({ uri: proxy.url });
    await expect(request(`http://${targetHost}/denied`, { dispatcher: none })).rejects.toThrow(/407/);
    expect(proxy.log().map((e) => e.authorized)).toEqual([false, false]);
    expect(seen.length).toBe(before);
    await none.close();
  });
});
