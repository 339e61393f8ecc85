import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

// The built web app as the server hands it out: files under assets/ are named by their content and kept by the
// browser; the document that names them is asked again each time, so a new release is seen at the next load.

let t: TestApp, dist: string;

beforeAll(async () => {
  dist = mkdtempSync(path.join(os.tmpdir(), 'tritium-web-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><script type="module" src="/assets/index-Ab12Cd34.js"></script>');
  writeFileSync(path.join(dist, 'assets/index-Ab12Cd34.js'), 'console.log("页面");');
  writeFileSync(path.join(dist, 'favicon.ico'), 'icon');
  t = await createTestApp({ config: { webDist: dist } });
});
afterAll(async () => {
  await t?.close();
  rmSync(dist, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('the web app’s files', () => {
  it('content-named files are kept for a year; the pages’ document and other files are asked again', async () => {
    const script = await get('/assets/index-Ab12Cd34.js');
    expect(script.statusCode).toBe(200);
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    for (const url of ['/entry/', '/workbench', '/app/demo/form/D0001?x=1']) {
      const page = await get(url);
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.body).toContain('/assets/index-Ab12Cd34.js');
    }
    expect((await get('/favicon.ico')).headers['cache-control']).toBe('no-cache');
  });

  it('the document asked again answers 304 while it is unchanged', async () => {
    const first = await get('/entry/');
    const again = await get('/entry/', { 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
  });

  it('a content-named file that is not there (a release ago’s) is a 404, not the document', async () => {
    const missing = await get('/assets/index-Old00000.js');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toContain('application/json');
    expect(missing.json().errorCode).toBe(100404);
  });
});
