import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { engineWithForm, killableServer, until } from './server-process.ts';

// A restart after a crash always starts (docs/decisions/0116): the server's whole process group is killed with
// SIGKILL while its parent never reaps it, so it stays a zombie whose pid still answers a signal — and the data
// folder's lock, a socket the kernel closed with the process, lets the next start in at once.

const isPostgres = process.env.TEST_DB_KIND === 'postgres';

/** The process's state letter from /proc (Z: a zombie), or 'gone'. */
function stateOf(pid: number): string {
  try {
    return /^State:\s+(\S)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 'gone';
  } catch {
    return 'gone';
  }
}

describe.skipIf(isPostgres || process.platform !== 'linux')('a restart after a crash', () => {
  it('starts on PGlite while the killed server is still an unreaped zombie, with its data', async () => {
    const platform = await killableServer('lock-zombie', {});
    const pid = await platform.startUnreaped();
    const s = await engineWithForm(platform.base, {
      mobile: '13900001116', engineName: '锁测试公司', appCode: 'D000116app', appName: '锁测试', formName: '登记',
      controls: [{ type: 'textBox', code: 'Title', options: { displayName: '标题' } }],
    });

    process.kill(-pid, 'SIGKILL');
    await until('the killed server to be a zombie', async () => (stateOf(pid) === 'Z' ? true : undefined));
    // The old check (kill(pid, 0)) still finds the zombie.
    expect(() => process.kill(pid, 0)).not.toThrow();

    await platform.start(30_000);
    expect(stateOf(pid)).toBe('Z');
    const loaded = await s.post('/v1/formdesign/load', { schemaCode: s.formCode });
    expect(JSON.stringify(loaded)).toContain('"Title"');
  });
});
