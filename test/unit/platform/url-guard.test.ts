import { describe, expect, it } from 'vitest';
import { checkOutboundUrl, guardedFetch, OutboundError } from '../../../src/platform/url-guard.ts';

const env = { OUTBOUND_ALLOWLIST: '' };

describe('checkOutboundUrl', () => {
  it.each([
    ['https://example.com/hook', true],
    ['http://93.184.216.34/', true],
    ['https://[2606:4700::1111]/', true],
    ['ftp://example.com/', false],
    ['javascript:alert(1)', false],
    ['not a url', false],
    ['https://user:pass@example.com/', false],
    ['http://localhost:8080/', false],
    ['http://api.localhost/', false],
    ['http://printer.local/', false],
    ['http://metadata.internal/', false],
    ['http://intranet/', false],
    ['http://127.0.0.1/', false],
    ['http://127.1/', false],
    ['http://2130706433/', false],
    ['http://0x7f000001/', false],
    ['http://0177.0.0.1/', false],
    ['http://0.0.0.0/', false],
    ['http://10.1.2.3/', false],
    ['http://172.16.0.1/', false],
    ['http://172.31.255.255/', false],
    ['http://172.32.0.1/', true],
    ['http://192.168.1.1/', false],
    ['http://169.254.169.254/latest/meta-data', false],
    ['http://100.64.0.1/', false],
    ['http://224.0.0.1/', false],
    ['http://[::1]/', false],
    ['http://[::]/', false],
    ['http://[::ffff:127.0.0.1]/', false],
    ['http://[::ffff:7f00:1]/', false],
    ['http://[64:ff9b::a9fe:a9fe]/', false],
    ['http://[fc00::1]/', false],
    ['http://[fe80::1]/', false],
    ['http://[ff02::1]/', false],
  ])('%s -> allowed %s', (url, allowed) => {
    const r = checkOutboundUrl(url, env);
    expect(r.ok).toBe(allowed);
    if (!r.ok) expect(r.reason.length).toBeGreaterThan(0);
  });

  it('lets allowlisted hosts through, by host or host:port', () => {
    expect(checkOutboundUrl('http://127.0.0.1:9999/x', { OUTBOUND_ALLOWLIST: '127.0.0.1' }).ok).toBe(true);
    expect(checkOutboundUrl('http://127.0.0.1:9999/x', { OUTBOUND_ALLOWLIST: '127.0.0.1:9999' }).ok).toBe(true);
    expect(checkOutboundUrl('http://127.0.0.1:9998/x', { OUTBOUND_ALLOWLIST: '127.0.0.1:9999' }).ok).toBe(false);
  });

  it('requires HTTPS when asked', () => {
    expect(checkOutboundUrl('http://example.com/', env, { requireHttps: true })).toEqual({
      ok: false,
      reason: 'HTTPS is required',
    });
    expect(checkOutboundUrl('https://example.com/', env, { requireHttps: true }).ok).toBe(true);
  });

  it('local development lets allow-listed loopback hosts use http where HTTPS is required, and only those', () => {
    const local = {
      OUTBOUND_ALLOWLIST: '127.0.0.1,localhost,10.0.0.5,[::1]',
      OUTBOUND_LOOPBACK_HTTP: 'on',
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres',
    };
    const https = { requireHttps: true };
    expect(checkOutboundUrl('http://127.0.0.1:9999/hook', local, https).ok).toBe(true);
    expect(checkOutboundUrl('http://localhost:9999/hook', local, https).ok).toBe(true);
    expect(checkOutboundUrl('http://[::1]:9999/hook', local, https).ok).toBe(true);
    // allow-listed but not loopback, loopback but not allow-listed, public: still HTTPS only
    expect(checkOutboundUrl('http://10.0.0.5/hook', local, https)).toEqual({ ok: false, reason: 'HTTPS is required' });
    expect(checkOutboundUrl('http://127.0.0.2/hook', local, https)).toEqual({ ok: false, reason: 'HTTPS is required' });
    expect(checkOutboundUrl('http://example.com/', local, https)).toEqual({ ok: false, reason: 'HTTPS is required' });
    // the setting off (the default): loopback http is refused as before
    const off = { ...local, OUTBOUND_LOOPBACK_HTTP: 'off' };
    expect(checkOutboundUrl('http://127.0.0.1:9999/hook', off, https)).toEqual({
      ok: false,
      reason: 'HTTPS is required',
    });
    const { OUTBOUND_LOOPBACK_HTTP: _, ...unset } = local;
    expect(checkOutboundUrl('http://127.0.0.1:9999/hook', unset, https).ok).toBe(false);
  });
});

describe('guardedFetch', () => {
  it('refuses a private target before any request is made', async () => {
    await expect(guardedFetch(env, 'http://10.0.0.1/')).rejects.toBeInstanceOf(OutboundError);
  });

  it('re-checks redirects, enforces the size limit and the timeout', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      if (req.url === '/redirect') {
        res.writeHead(302, { location: 'http://169.254.169.254/' });
        return res.end();
      }
      if (req.url === '/big') {
        res.writeHead(200);
        return res.end('x'.repeat(5000));
      }
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2000);
      res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const allow = { OUTBOUND_ALLOWLIST: '127.0.0.1' };
    try {
      expect((await guardedFetch(allow, `${base}/`)).text()).toBe('ok');
      await expect(guardedFetch(allow, `${base}/redirect`)).rejects.toThrow(/link-local/);
      await expect(guardedFetch(allow, `${base}/big`, {}, { maxBytes: 1000 })).rejects.toThrow(/larger than 1000/);
      await expect(guardedFetch(allow, `${base}/slow`, {}, { timeoutMs: 200 })).rejects.toThrow(/timed out/);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
