import vm from 'node:vm';
import { contracts } from '@tritium/shared';

// A recognition template's rules over the lines OCR read (docs/decisions/0125). A field with labels takes the text
// after its label on the label's line, else the nearest line to the right on the same row, else the line below that
// overlaps it; a pattern then picks the value out of each candidate (its first group, if it has one) and the lengths
// bound it. A field without labels searches every line with its pattern.
//
// Patterns are the template author's regular expressions and run on the server: they are checked when saved (compiled,
// no back-references, no quantified group that itself holds a quantifier — the shape of catastrophic backtracking)
// and every match runs in a V8 context with a time-out, so even a pattern that slips through costs at most
// OCR_BOUNDS.patternMs per field.

type Field = contracts.RecognitionField;
type Line = contracts.OcrLine;

const { OCR_BOUNDS } = contracts;

/** Why a pattern is refused, or null. */
export function patternProblem(pattern: string): string | null {
  if (pattern.length > OCR_BOUNDS.patternChars) return `正则表达式最多 ${OCR_BOUNDS.patternChars} 个字符`;
  try {
    new RegExp(pattern, 'u');
  } catch {
    return '正则表达式无法解析';
  }
  if (/\\[1-9]|\\k</.test(pattern)) return '正则表达式不能使用反向引用';
  if (nestedQuantifier(pattern)) return '正则表达式不能对含有量词的分组再使用量词';
  return null;
}

/** Whether a quantified group holds a quantifier ((a+)+, (a|b*)*, (x{2,})+…). */
function nestedQuantifier(pattern: string): boolean {
  // Per open group: whether a quantifier appeared inside it.
  const stack: boolean[] = [];
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(') stack.push(false);
    else if (c === ')') {
      const held = stack.pop() ?? false;
      const next = pattern[i + 1];
      const quantified = next === '*' || next === '+' || next === '?' || next === '{';
      if (held && quantified && next !== '?') return true;
      if ((held || quantified) && stack.length) stack[stack.length - 1] = true;
    } else if ((c === '*' || c === '+' || c === '{') && stack.length) stack[stack.length - 1] = true;
  }
  return false;
}

/** Every problem of a template's fields: codes unique, patterns safe, lengths in order. */
export function templateProblems(fields: Field[]): { field: string; reason: string } | null {
  const seen = new Set<string>();
  for (const field of fields) {
    if (seen.has(field.code)) return { field: field.code, reason: '字段编码重复' };
    seen.add(field.code);
    if (!field.anchors.length && !field.pattern) return { field: field.code, reason: '须填写标签或正则表达式' };
    const problem = field.pattern ? patternProblem(field.pattern) : null;
    if (problem) return { field: field.code, reason: problem };
    if (field.minLength && field.maxLength && field.minLength > field.maxLength) return { field: field.code, reason: '最短长度不能大于最长长度' };
  }
  return null;
}

const compact = (text: string) => text.replace(/\s+/g, '');
const SEPARATORS = /^[\s:：,，;；]+|[\s,，;；。]+$/g;

interface Placed {
  text: string;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

function placed(line: Line): Placed {
  const xs = line.box.map((p) => p[0]);
  const ys = line.box.map((p) => p[1]);
  return { text: compact(line.text), left: Math.min(...xs), right: Math.max(...xs), top: Math.min(...ys), bottom: Math.max(...ys) };
}

const sameRow = (a: Placed, b: Placed) => Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5 * Math.min(a.bottom - a.top, b.bottom - b.top);
const overlapsAcross = (a: Placed, b: Placed) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0;

/** The texts a field's value may be in, best first. */
export function candidatesOf(field: Field, lines: Line[]): string[] {
  const all = lines.map(placed);
  if (!field.anchors.length) return all.map((l) => l.text);
  const found: string[] = [];
  for (const anchor of field.anchors.map(compact)) {
    for (const line of all) {
      const at = line.text.indexOf(anchor);
      if (at < 0) continue;
      if (field.direction !== 'below') {
        const rest = line.text.slice(at + anchor.length).replace(SEPARATORS, '');
        if (rest) found.push(rest);
        const right = all.filter((l) => l !== line && l.left >= line.right - 2 && sameRow(l, line)).sort((a, b) => a.left - b.left)[0];
        if (right) found.push(right.text.replace(SEPARATORS, ''));
      }
      if (field.direction !== 'right') {
        const below = all.filter((l) => l.top >= line.bottom - 2 && overlapsAcross(l, line)).sort((a, b) => a.top - b.top)[0];
        if (below) found.push(below.text.replace(SEPARATORS, ''));
      }
    }
  }
  return found.filter(Boolean);
}

const MATCH = new vm.Script('(() => { const re = new RegExp(pattern, "u"); for (const c of candidates) { const m = re.exec(c); if (m) return m[1] ?? m[0]; } return null; })()');

/** Runs the field's pattern over the candidates in a context that stops after the time budget; the first match. */
function matchPattern(context: vm.Context, pattern: string, candidates: string[]): string | null | 'timeout' {
  context.pattern = pattern;
  context.candidates = candidates;
  try {
    return MATCH.runInContext(context, { timeout: OCR_BOUNDS.patternMs }) as string | null;
  } catch {
    return 'timeout';
  }
}

/** A value as the template takes it: trimmed, digits with spaces between them closed up. */
const tidy = (value: string) => {
  const trimmed = value.replace(SEPARATORS, '').trim();
  return /^[\d ]+$/.test(trimmed) ? trimmed.replace(/ /g, '') : trimmed;
};

export interface FieldReading {
  code: string;
  name: string;
  value: string | null;
  /** Set when the field's pattern ran out of time. */
  problem?: string;
}

/** The template's fields read from the lines by its rules. */
export function applyRules(fields: Field[], lines: Line[]): FieldReading[] {
  const context = vm.createContext({ pattern: '', candidates: [] as string[] });
  return fields.map((field) => {
    // Bounded input: at most 60 candidates of 300 characters each.
    const candidates = candidatesOf(field, lines).slice(0, 60).map((c) => c.slice(0, 300));
    const fits = (v: string) => (!field.minLength || v.length >= field.minLength) && (!field.maxLength || v.length <= field.maxLength);
    if (!field.pattern) {
      const value = candidates.map(tidy).find((c) => c && fits(c));
      return { code: field.code, name: field.name, value: value ?? null };
    }
    const matched = matchPattern(context, field.pattern, candidates);
    if (matched === 'timeout') return { code: field.code, name: field.name, value: null, problem: '正则表达式运行超时' };
    const value = matched === null ? null : tidy(matched);
    return { code: field.code, name: field.name, value: value && fits(value) ? value : null };
  });
}
