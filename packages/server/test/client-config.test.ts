import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

// GET /config.js: the settings the web app reads before it starts (web/index.html), here the map's tile source.

const apps: TestApp[] = [];
afterAll(() => Promise.all(apps.map((t) => t.close())));

async function configScript(mapTileUrl?: string) {
  const t = await createTestApp({ config: { mapTileUrl } });
  apps.push(t);
  const res = await t.app.inject({ method: 'GET', url: '/config.js' });
  return { status: res.statusCode, type: res.headers['content-type'], body: res.body };
}

describe('the client configuration script', () => {
  it('carries TRITIUM_MAP_TILE_URL when set (empty too: no tiles), nothing otherwise; no session needed', async () => {
    const set = await configScript('https://tiles.example.cn/{z}/{x}/{y}.png');
    expect(set.status).toBe(200);
    expect(set.type).toContain('application/javascript');
    expect(set.body).toBe('window.__TRITIUM_CONFIG__ = {"mapTileUrl":"https://tiles.example.cn/{z}/{x}/{y}.png"};\n');
    expect((await configScript('')).body).toBe('window.__TRITIUM_CONFIG__ = {"mapTileUrl":""};\n');
    expect((await configScript()).body).toBe('window.__TRITIUM_CONFIG__ = {};\n');
  });
});
