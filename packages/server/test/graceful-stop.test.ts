import http from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { killableServer, until } from './server-process.ts';

// Stopping the server (SIGTERM, as a deploy or `npm start`'s Ctrl+C does): an answer being written when the stop comes
// is finished, and its keep-alive connection is closed as soon as it is idle. Fastify closes idle connections once,
// when the stop begins; this one was busy then, and without packages/server/src/main.ts's idle sweep the process
// waited out the connection's keep-alive timeout (72 s) — past this test's limit of 30 s.

const SIZE = 32 * 1024 * 1024;

describe('stopping the server', () => {
  it('finishes an answer in flight, then closes its keep-alive connection and exits', async () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'tritium-stop-'));
    onTestFinished(() => rmSync(dist, { recursive: true, force: true }));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>t</title>');
    writeFileSync(path.join(dist, 'big.bin'), Buffer.alloc(SIZE, 7));
    const platform = await killableServer('graceful-stop', { TRITIUM_WEB_DIST: dist });
    const server = await platform.start();
    const exited = new Promise((resolve) => server.once('exit', resolve));

    const agent = new http.Agent({ keepAlive: true });
    onTestFinished(() => agent.destroy());
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => http.get(`${platform.base}/big.bin`, { agent }, resolve).on('error', reject));
    expect(res.headers.connection).toBe('keep-alive');
    // Not read yet: the server's writing waits on this side, so the answer is in flight when the stop comes.
    res.pause();
    server.kill('SIGTERM');
    await until('the server to stop listening', () => fetch(`${platform.base}/index.html`).then(() => undefined, () => true));

    let bytes = 0;
    res.on('data', (chunk: Buffer) => (bytes += chunk.length));
    const ended = new Promise((resolve) => res.once('end', resolve));
    res.resume();
    await ended;
    expect(bytes).toBe(SIZE);
    expect(await exited).toBe(0);
  });
});
