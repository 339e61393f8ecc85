import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { VALIDATION_MESSAGES, describeIssue, fieldIssue, localizeIssue, templateOf, translateMessage, validationMessage, type ValidationMessageKey } from './messages.ts';
import { findBadInput, unstorableReason } from './unstorable-text.ts';

const HAN = /\p{Script=Han}/u;
const PARAMS = { all: -1, code: 'Name', field: 'Amount', max: 32, min: 2, length: 6, expected: '文本', date: '2024-01-31', divisor: 5, values: 'a、b', keys: 'x' };

describe('validation message templates', () => {
  it('every zh-CN text leads back to its own template, and its en-US text has no Chinese left', () => {
    for (const key of Object.keys(VALIDATION_MESSAGES) as ValidationMessageKey[]) {
      const zh = validationMessage(key, PARAMS);
      const found = templateOf(zh);
      expect(found && validationMessage(found.key, found.params), key).toBe(zh);
      const en = translateMessage(zh, 'en-US');
      expect(HAN.test(en), `${key}: ${en}`).toBe(false);
      expect(en).toBe(validationMessage(key, key === 'wrongType' ? { ...PARAMS, expected: 'text' } : PARAMS, 'en-US'));
    }
  });

  it('every Chinese validation text written in the contracts has an English template', () => {
    const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
    const files: string[] = [path.join(root, 'validation/zod.ts')];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const file = path.join(dir, name);
        if (statSync(file).isDirectory()) walk(file);
        else if (file.endsWith('.ts') && !file.endsWith('.test.ts')) files.push(file);
      }
    };
    walk(path.join(root, 'contracts'));
    walk(path.join(root, 'automation'));
    walk(path.join(root, 'print'));
    walk(path.join(root, 'report'));
    const literal = /(?:\.(?:min|max|regex|refine|length|url|uuid)\([^'`\n]*|error: |message: )['`]([^'`\n]*\p{Script=Han}[^'`\n]*)['`]/gu;
    const missing: string[] = [];
    for (const file of files) {
      for (const m of readFileSync(file, 'utf8').matchAll(literal)) {
        // An interpolated limit reads as a number here.
        const text = m[1]!.replace(/\$\{[^}]+\}/g, '5');
        if (!templateOf(text)) missing.push(`${path.relative(root, file)}: ${text}`);
      }
    }
    expect(files.length).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });

  it('free text without a template stays as written', () => {
    expect(translateMessage('合计不能超过100', 'en-US')).toBe('合计不能超过100');
  });

  it('a field issue is rendered with the display name in front, in either language', () => {
    const issue = fieldIssue('values.Amount', '金额', 'numberTooBig', { max: 100 });
    expect(issue.message).toBe('不能大于100');
    expect(localizeIssue(issue, 'zh-CN')).toEqual({ path: 'values.Amount', label: '金额', message: '金额：不能大于100' });
    expect(localizeIssue(issue, 'en-US')).toEqual({ path: 'values.Amount', label: '金额', message: '金额: Must not be greater than 100' });
    expect(localizeIssue({ path: 'values.Title', message: '必填', label: '标题' }, 'en-US').message).toBe('标题: Required');
  });
});

describe('zod issues in both languages', () => {
  const schema = z.strictObject({
    count: z.number().int().max(10),
    name: z.string().min(1).max(3),
    kind: z.enum(['a', 'b']),
    id: z.uuid(),
    tags: z.array(z.string()).min(1),
    must: z.string(),
  });
  const issues = schema.safeParse({ count: '3', name: 'abcd', kind: 'c', id: 'x', tags: [], extra: 1 }, { error: (issue) => describeIssue(issue) }).error!.issues;

  it('speaks Chinese by default, with no English left', () => {
    const byPath = Object.fromEntries(issues.map((i) => [i.path.join('.') || '(root)', i.message]));
    expect(byPath).toEqual({ count: '须为数字', name: '最多3个字符', kind: '须为以下之一：a、b', id: '须为有效的 id', tags: '至少选择一项', must: '必填', '(root)': '不支持的字段：extra' });
  });

  it('renders the same issues in English', () => {
    expect(issues.map((i) => translateMessage(i.message, 'en-US'))).toEqual(
      expect.arrayContaining(['Must be a number', 'At most 3 characters', 'Must be one of: a、b', 'Must be a valid id', 'Choose at least one', 'Required', 'Unknown field: extra']),
    );
  });
});

describe('text the database refuses', () => {
  it('finds U+0000 and unpaired surrogates, not paired ones', () => {
    expect(unstorableReason('a\u0000b')).toBe('nulCharacter');
    expect(unstorableReason('a\ud800b')).toBe('loneSurrogate');
    expect(unstorableReason('a\udc00')).toBe('loneSurrogate');
    expect(unstorableReason('表情😀')).toBeNull();
  });

  it('names the path, inside JSON carried in strings too, and stops at the depth limit without recursion', () => {
    expect(findBadInput({ a: [{ b: 'x' }, { c: 'y\u0000' }] }, { maxDepth: 10 })).toEqual({ path: 'a.1.c', reason: 'nulCharacter' });
    expect(findBadInput({ BizObject: JSON.stringify({ Title: 'x\ud800' }) }, { maxDepth: 10, readJsonStrings: true })).toEqual({ path: 'BizObject.Title', reason: 'loneSurrogate' });
    expect(findBadInput({ BizObject: JSON.stringify({ Title: 'x\ud800' }) }, { maxDepth: 10 })).toBeNull();
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findBadInput({ v: deep }, { maxDepth: 64 })).toMatchObject({ reason: 'nestedTooDeep' });
    expect(findBadInput({ v: [[['ok']]] }, { maxDepth: 64 })).toBeNull();
  });

  it('JSON text without a backslash is judged by its text alone, and anything an escape or its nesting could hide is still found', () => {
    const strings = { maxDepth: 10, readJsonStrings: true };
    // No backslash: every string inside is a piece of the text, already checked (the BizObject of the peer workload).
    expect(findBadInput({ BizObjectArray: [JSON.stringify({ Title: '任务 alpha 1', Qty: 3, Tags: ['a', 'b'] })] }, strings)).toBeNull();
    // An escape makes a NUL or a lone half only once parsed.
    expect(findBadInput({ BizObjectArray: ['{"Title":"x\\u0000"}'] }, strings)).toEqual({ path: 'BizObjectArray.0.Title', reason: 'nulCharacter' });
    expect(findBadInput({ BizObjectArray: ['{"Title":"x\\ud800"}'] }, strings)).toEqual({ path: 'BizObjectArray.0.Title', reason: 'loneSurrogate' });
    expect(findBadInput({ BizObjectArray: ['{"Title":"\\u0041\\ud800\\udc00 ok"}'] }, strings)).toBeNull();
    // A JSON string inside a JSON string carries its quotes escaped, so it is read too.
    expect(findBadInput({ BizObject: JSON.stringify({ Address: JSON.stringify({ Detail: 'x\ud800' }) }) }, strings)).toEqual({ path: 'BizObject.Address.Detail', reason: 'loneSurrogate' });
    // Nesting inside text without a backslash: as deep as the brackets say, counted from where the text sits.
    expect(findBadInput({ v: '['.repeat(20) + ']'.repeat(20) }, strings)).toMatchObject({ reason: 'nestedTooDeep' });
    // (the text sits at level 3 of 10: seven levels of lists fit, eight do not)
    expect(findBadInput({ a: { b: { v: '[[[[[[[[1]]]]]]]]' } } }, strings)).toMatchObject({ reason: 'nestedTooDeep' });
    expect(findBadInput({ a: { b: { v: '[[[[[[[1]]]]]]]' } } }, strings)).toBeNull();
    // Brackets inside a string's text count too (an upper bound): such text is parsed, and its real nesting decides.
    expect(findBadInput({ v: JSON.stringify({ Notes: '【' + '['.repeat(30) + '】' }) }, strings)).toBeNull();
  });
});
