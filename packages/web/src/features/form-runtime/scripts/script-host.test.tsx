import { describe, expect, it, vi } from 'vitest';
import { inProcessSandboxes } from './in-process-channel.ts';
import { ScriptHost, type ScriptHostOptions, type ScriptProblem } from './script-host.ts';
import { isJsonValue, parseRunnerMessage, type JsonValue, type ScriptOperation, type ServerAnswer } from './script-protocol.ts';

/** A compiled browser script in the shape the server's esbuild gives (format iife, globalName __script). */
const compiled = (body: string) => `var __script = (() => {\n${body}\n})();`;

function hostOf(body: string, options: Partial<ScriptHostOptions> = {}) {
  const sandboxes = inProcessSandboxes();
  const applied: ScriptOperation[] = [];
  const problems: ScriptProblem[] = [];
  const callServer = vi.fn<(actionName: string, params: JsonValue) => Promise<ServerAnswer>>(async () => ({}));
  const host = new ScriptHost({
    js: compiled(body),
    open: sandboxes.open,
    rules: () => ({ settable: new Set(['Title', 'Level', 'Total']), known: new Set(['Title', 'Level', 'Total', 'Items']) }),
    apply: (ops) => applied.push(...ops),
    report: (problem) => problems.push(problem),
    callServer,
    timeoutMs: 300,
    ...options,
  });
  return { host, applied, problems, callServer, sandboxes };
}

const values = (snapshot: Record<string, JsonValue>) => () => snapshot;

describe('a browser script in its sandbox', () => {
  it('loads, lists its handlers and buttons, and answers an event with operations in order', async () => {
    const { host, applied, problems } = hostOf(`
      function onChange(form, field, value) {
        if (field === 'Level' && value === '高') { form.hide('Title'); form.lock('Items'); }
        form.set('Total', form.get('Total') + 1);
        form.message('已更新 ' + form.get('Total'), 'success');
        return 'ok';
      }
      return { onChange, buttons: { fill: (form) => form.set('Title', '按钮') } };`);
    expect(await host.whenReady()).toBe(true);
    expect(host.has('onChange')).toBe(true);
    expect(host.has('onLoad')).toBe(false);
    expect(host.has('button', 'fill')).toBe(true);
    expect(host.has('button', 'other')).toBe(false);
    const outcome = await host.run('onChange', ['Level', '高'], values({ Total: 1, Level: '高' }));
    expect(outcome).toEqual({ ok: true, result: 'ok' });
    expect(applied).toEqual([
      { op: 'hide', code: 'Title' },
      { op: 'lock', code: 'Items' },
      { op: 'set', code: 'Total', value: 2 },
      { op: 'message', text: '已更新 2', type: 'success' },
    ]);
    expect(problems).toEqual([]);
    await host.run('button', ['fill'], values({}));
    expect(applied.at(-1)).toEqual({ op: 'set', code: 'Title', value: '按钮' });
    host.dispose();
  });

  it("takes the server compiler's output: exports as getters under __formScript", async () => {
    const { host, applied } = hostOf('', {
      js: `"use strict";
var __formScript = (() => {
  var __defProp = Object.defineProperty;
  var __export = (target, all) => { for (var name in all) __defProp(target, name, { get: all[name], enumerable: true }); };
  var exports = {};
  __export(exports, { buttons: () => buttons, onLoad: () => onLoad });
  function onLoad(form) { form.set("Title", "\u5DF2\u52A0\u8F7D"); }
  const buttons = { go: (form) => form.lock("Title") };
  return exports;
})();`,
    });
    expect(await host.whenReady()).toBe(true);
    expect(host.has('button', 'go')).toBe(true);
    await host.run('onLoad', [], values({}));
    await host.run('button', ['go'], values({}));
    expect(applied).toEqual([{ op: 'set', code: 'Title', value: '已加载' }, { op: 'lock', code: 'Title' }]);
    host.dispose();
  });

  it('answers null at once for a handler the script does not export', async () => {
    const { host, applied } = hostOf('return {};');
    expect(await host.run('validate', [], values({}))).toEqual({ ok: true, result: null });
    expect(applied).toEqual([]);
    host.dispose();
  });

  it('refuses operations on unknown fields, unknown operations and values that are not JSON', async () => {
    const { host, applied, problems } = hostOf(`return { onLoad(form) {
      form.set('Nope', 1); form.hide('Ghost'); form.set('Title', 'ok'); form.message('');
    } };`);
    await host.run('onLoad', [], values({}));
    expect(applied).toEqual([{ op: 'set', code: 'Title', value: 'ok' }]);
    expect(problems).toEqual([{ kind: 'refused', count: 3 }]);
    host.dispose();
  });

  it('checks what the frame itself posts: forged operations pass the same rules', async () => {
    const { host, applied, problems, sandboxes } = hostOf('return { onLoad() { return new Promise(() => {}); } };', { timeoutMs: 2000 });
    await host.whenReady();
    const running = host.run('onLoad', [], values({}));
    await new Promise((resolve) => setTimeout(resolve, 20));
    sandboxes.forge({ type: 'done', eventId: 99, ops: [{ op: 'set', code: 'Title', value: 'x' }], result: null });
    sandboxes.forge({ type: 'done', eventId: 1, ops: [{ op: 'eval', code: 'Title' }, { op: 'set', code: 'Title', value: { toString: null, nested: [1, 2] } }, { op: 'set', code: '__proto__', value: 1 }], result: null });
    expect(await running).toEqual({ ok: true, result: null });
    expect(applied).toEqual([{ op: 'set', code: 'Title', value: { toString: null, nested: [1, 2] } }]);
    expect(problems).toEqual([{ kind: 'refused', count: 2 }]);
    host.dispose();
  });

  it('reports a handler that throws, and keeps running the next ones', async () => {
    const { host, problems } = hostOf(`return {
      onChange() { throw new Error('金额不能为负'); },
      validate() { return '请填写原因'; },
    };`);
    expect(await host.run('onChange', ['Total', -1], values({}))).toEqual({ ok: false, reason: 'failed' });
    expect(problems).toEqual([{ kind: 'error', message: '金额不能为负' }]);
    expect(await host.run('validate', [], values({}))).toEqual({ ok: true, result: '请填写原因' });
    host.dispose();
  });

  it('stops a handler that runs too long, loads the script in a fresh sandbox and goes on', async () => {
    const { host, problems, sandboxes } = hostOf(`let calls = 0; return {
      onChange(form, field, value) { calls += 1; if (value === 'a') return new Promise(() => {}); return calls; },
    };`);
    expect(await host.run('onChange', ['Title', 'a'], values({}))).toEqual({ ok: false, reason: 'failed' });
    expect(problems).toEqual([{ kind: 'timeout', seconds: 0.3 }]);
    expect(sandboxes.opened()).toBe(2);
    // The fresh sandbox starts the script again: its state did not survive.
    expect(await host.run('onChange', ['Title', 'b'], values({}))).toEqual({ ok: true, result: 1 });
    host.dispose();
  });

  it('runs events one after another, each with the values of its own time', async () => {
    const { host } = hostOf(`return { async onChange(form, field) { await null; return field + '=' + form.get(field); } };`);
    const first = host.run('onChange', ['Title', 'a'], values({ Title: 'a' }));
    const second = host.run('onChange', ['Title', 'b'], values({ Title: 'b' }));
    expect(await Promise.all([first, second])).toEqual([{ ok: true, result: 'Title=a' }, { ok: true, result: 'Title=b' }]);
    host.dispose();
  });

  it('calls the server for form.callServer: operations so far first, its answer back to the script, its time not counted', async () => {
    const { host, applied, callServer } = hostOf(`return { buttons: { async price(form) {
      form.set('Title', '询价');
      const answer = await form.callServer('Quote', { level: form.get('Level') });
      form.message(answer.message + ':' + form.get('Total') + ':' + answer.data.rate, 'info');
    } } };`, { timeoutMs: 100 });
    callServer.mockImplementation(async () => {
      expect(applied).toEqual([{ op: 'set', code: 'Title', value: '询价' }]);
      await new Promise((resolve) => setTimeout(resolve, 250));
      return { values: { Total: 42 }, data: { rate: 0.9 }, message: '已报价' };
    });
    expect(await host.run('button', ['price'], values({ Level: '高' }))).toEqual({ ok: true, result: null });
    expect(callServer).toHaveBeenCalledWith('Quote', { level: '高' });
    expect(applied.at(-1)).toEqual({ op: 'message', text: '已报价:42:0.9', type: 'info' });
    host.dispose();
  });

  it("hands a server's refusal to the script, and does not show it twice when the script lets it through", async () => {
    const { host, applied, problems, callServer } = hostOf(`return { buttons: {
      async caught(form) { try { await form.callServer('Check'); } catch (e) { form.message('拒绝：' + e.message, 'warning'); } },
      async uncaught(form) { await form.callServer('Check'); },
    } };`);
    callServer.mockRejectedValue(new Error('金额超过上限'));
    await host.run('button', ['caught'], values({}));
    expect(applied).toEqual([{ op: 'message', text: '拒绝：金额超过上限', type: 'warning' }]);
    expect(await host.run('button', ['uncaught'], values({}))).toEqual({ ok: false, reason: 'failed' });
    expect(problems).toEqual([]);
    host.dispose();
  });

  it('says so when the script does not load, and runs nothing', async () => {
    const { host, problems } = hostOf('return { onLoad( };');
    expect(await host.whenReady()).toBe(false);
    expect(problems).toHaveLength(1);
    expect(problems[0].kind).toBe('loadError');
    expect(await host.run('onLoad', [], values({}))).toEqual({ ok: false, reason: 'unavailable' });
    host.dispose();
  });
});

describe('the protocol checks', () => {
  it('takes only plain JSON values', () => {
    expect(isJsonValue({ a: [1, 'b', null, true, { c: 2 }] })).toBe(true);
    expect(isJsonValue(new Date())).toBe(false);
    expect(isJsonValue(Number.NaN)).toBe(false);
    expect(isJsonValue(new Map())).toBe(false);
    expect(isJsonValue(undefined)).toBe(false);
    let deep: unknown = 1;
    for (let i = 0; i < 30; i += 1) deep = [deep];
    expect(isJsonValue(deep)).toBe(false);
  });

  it('ignores messages of unknown shapes', () => {
    expect(parseRunnerMessage(null)).toBeNull();
    expect(parseRunnerMessage({ type: 'apply', ops: [] })).toBeNull();
    expect(parseRunnerMessage({ type: 'done', eventId: 'x' })).toBeNull();
    expect(parseRunnerMessage({ type: 'call', eventId: 1, callId: 1, actionName: '', params: null })).toBeNull();
    expect(parseRunnerMessage({ type: 'ready', handlers: ['onLoad', 'constructor'], buttons: ['a', 3] })).toEqual({ type: 'ready', handlers: ['onLoad'], buttons: ['a'] });
  });
});
