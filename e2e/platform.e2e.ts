import { inject, describe, expect, it } from 'vitest';
import { startPlatform } from './global-setup.ts';

describe('the start command', () => {
  it('serves the login page in Chinese', async () => {
    const res = await fetch(`${inject('baseUrl')}/entry/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain('lang="zh-CN"');
  });

  it('refuses a second server on the same data folder with a clear message', async () => {
    const child = startPlatform({ PORT: '0', TRITIUM_DATA_DIR: inject('dataDir') });
    let output = '';
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(output).toContain('正由另一个 Tritium 进程');
    expect(output).toContain('TRITIUM_DATA_DIR');
  });
});
