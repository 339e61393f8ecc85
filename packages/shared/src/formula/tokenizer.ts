/** Splits a formula into tokens; lexical errors (unclosed strings or braces, stray characters) carry their span. */
import { FormulaException } from './ast.ts';

export type TokenKind = 'number' | 'string' | 'field' | 'ident' | 'op' | 'eof';

export interface Token {
  kind: TokenKind;
  /** Operator or identifier text; the field code for fields (trimmed); the decoded text for strings. */
  text: string;
  start: number;
  end: number;
  value?: number;
}

// Longest first, so `<=` wins over `<`.
const OPERATORS = ['===', '!==', '==', '!=', '<>', '<=', '>=', '&&', '||', '=', '<', '>', '+', '-', '*', '/', '&', '!', '(', ')', ','];
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r' };
// The product's designer inserts no-break spaces into rules (h3yun-facts §7); they are white space here.
const SPACE = /[\s\u00a0\u3000]/;
const FIELD_CODE = /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)?$/;
const FULL_WIDTH: Record<string, string> = { '（': '(', '）': ')', '，': ',', '“': '"', '”': '"', '‘': "'", '’': "'" };
// Stored rules of the product call functions as `$.fn.IF(...)` (h3yun-facts §2.10); the prefix is read and dropped.
const LEGACY_PREFIX = '$.fn.';

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i];
    if (SPACE.test(ch)) {
      i += 1;
      continue;
    }
    const start = i;
    if (/[0-9]/.test(ch) || (ch === '.' && /[0-9]/.test(source[i + 1] ?? ''))) {
      const match = /^(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(source.slice(i))!;
      i += match[0].length;
      tokens.push({ kind: 'number', text: match[0], value: Number(match[0]), start, end: i });
      continue;
    }
    if (ch === '"' || ch === "'") {
      let text = '';
      i += 1;
      while (i < source.length && source[i] !== ch) {
        if (source[i] === '\\' && i + 1 < source.length) {
          const next = source[i + 1];
          text += ESCAPES[next] ?? next;
          i += 2;
        } else {
          text += source[i];
          i += 1;
        }
      }
      if (i >= source.length) throw new FormulaException('字符串缺少结束引号', start, source.length);
      i += 1;
      tokens.push({ kind: 'string', text, start, end: i });
      continue;
    }
    if (ch === '{') {
      const close = source.indexOf('}', i);
      const open = source.indexOf('{', i + 1);
      if (close < 0 || (open >= 0 && open < close)) throw new FormulaException('字段引用缺少 }', start, open >= 0 && open < close ? open : source.length);
      const code = source.slice(i + 1, close).replace(/[\s\u00a0]/g, '');
      i = close + 1;
      if (!code) throw new FormulaException('字段引用为空', start, i);
      if (!FIELD_CODE.test(code)) throw new FormulaException(`字段引用 {${code}} 不正确：只能包含字母、数字和下划线，子表字段写作 {子表编码.字段编码}`, start, i);
      tokens.push({ kind: 'field', text: code, start, end: i });
      continue;
    }
    if (source.startsWith(LEGACY_PREFIX, i) && /[A-Za-z_]/.test(source[i + LEGACY_PREFIX.length] ?? '')) i += LEGACY_PREFIX.length;
    if (/[A-Za-z_]/.test(source[i])) {
      const match = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(i))!;
      i += match[0].length;
      tokens.push({ kind: 'ident', text: match[0], start, end: i });
      continue;
    }
    const op = OPERATORS.find((candidate) => source.startsWith(candidate, i));
    if (op) {
      i += op.length;
      tokens.push({ kind: 'op', text: op, start, end: i });
      continue;
    }
    if (FULL_WIDTH[ch]) throw new FormulaException(`请使用英文符号 ${FULL_WIDTH[ch]} 代替 ${ch}`, start, start + 1);
    throw new FormulaException(`无法识别的字符 ${ch}`, start, start + 1);
  }
  tokens.push({ kind: 'eof', text: '', start: source.length, end: source.length });
  return tokens;
}
