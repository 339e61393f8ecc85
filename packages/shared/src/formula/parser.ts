/**
 * Recursive-descent parser for the formula language (docs/decisions/0012-formula-language.md).
 * Precedence, lowest first: || OR; && AND; = == != <>; < <= > >=; &; + -; * /; unary - + ! NOT; primary.
 */
import { FormulaException, type BinaryOperator, type FormulaError, type FormulaNode } from './ast.ts';
import { formulaFunction } from './catalogue.ts';
import { tokenize, type Token } from './tokenizer.ts';

export interface ParseResult {
  /** null when the expression has an error. */
  ast: FormulaNode | null;
  /** At most one: the parser stops at the first problem. */
  errors: FormulaError[];
}

const EQUALITY: Record<string, BinaryOperator> = { '=': '=', '==': '=', '===': '=', '!=': '!=', '!==': '!=', '<>': '!=' };
const RELATIONAL: Record<string, BinaryOperator> = { '<': '<', '<=': '<=', '>': '>', '>=': '>=' };
/** Nesting of brackets, calls and signs, and depth of the tree: deeper formulas are refused before they overflow the stack. */
const MAX_NESTING = 100;
const MAX_TREE_DEPTH = 500;

class Parser {
  private index = 0;
  private nesting = 0;
  constructor(private readonly tokens: Token[]) {}

  private nested<T>(token: Token, read: () => T): T {
    if (++this.nesting > MAX_NESTING) throw new FormulaException(`公式嵌套过深（最多${MAX_NESTING}层）`, token.start, token.end);
    try {
      return read();
    } finally {
      this.nesting -= 1;
    }
  }

  parse(): FormulaNode {
    const node = this.or();
    const next = this.peek();
    if (next.kind !== 'eof') {
      throw new FormulaException(next.text === ')' ? '多余的 )' : `缺少运算符：${describe(next)} 前面应有运算符或逗号`, next.start, next.end);
    }
    return node;
  }

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.index + offset, this.tokens.length - 1)];
  }
  private take(): Token {
    return this.tokens[this.index++];
  }
  private isOp(text: string): boolean {
    const token = this.peek();
    return token.kind === 'op' && token.text === text;
  }
  /** AND / OR / NOT written as words, not followed by `(` (then they are the functions). */
  private isWord(word: string): boolean {
    const token = this.peek();
    return token.kind === 'ident' && token.text.toUpperCase() === word && !(this.peek(1).kind === 'op' && this.peek(1).text === '(');
  }

  private binary(left: FormulaNode, operator: BinaryOperator, right: FormulaNode): FormulaNode {
    return { type: 'binary', operator, left, right, start: left.start, end: right.end };
  }

  private or(): FormulaNode {
    let left = this.and();
    while (this.isOp('||') || this.isWord('OR')) {
      this.take();
      left = this.binary(left, '||', this.and());
    }
    return left;
  }
  private and(): FormulaNode {
    let left = this.equality();
    while (this.isOp('&&') || this.isWord('AND')) {
      this.take();
      left = this.binary(left, '&&', this.equality());
    }
    return left;
  }
  private equality(): FormulaNode {
    let left = this.relational();
    while (this.peek().kind === 'op' && EQUALITY[this.peek().text]) {
      const operator = EQUALITY[this.take().text];
      left = this.binary(left, operator, this.relational());
    }
    return left;
  }
  private relational(): FormulaNode {
    let left = this.concat();
    while (this.peek().kind === 'op' && RELATIONAL[this.peek().text]) {
      const operator = RELATIONAL[this.take().text];
      left = this.binary(left, operator, this.concat());
    }
    return left;
  }
  private concat(): FormulaNode {
    let left = this.additive();
    while (this.isOp('&')) {
      this.take();
      left = this.binary(left, '&', this.additive());
    }
    return left;
  }
  private additive(): FormulaNode {
    let left = this.multiplicative();
    while (this.isOp('+') || this.isOp('-')) {
      const operator = this.take().text as BinaryOperator;
      left = this.binary(left, operator, this.multiplicative());
    }
    return left;
  }
  private multiplicative(): FormulaNode {
    let left = this.unary();
    while (this.isOp('*') || this.isOp('/')) {
      const operator = this.take().text as BinaryOperator;
      left = this.binary(left, operator, this.unary());
    }
    return left;
  }
  private unary(): FormulaNode {
    const token = this.peek();
    if ((token.kind === 'op' && (token.text === '-' || token.text === '+' || token.text === '!')) || this.isWord('NOT')) {
      this.take();
      const operand = this.nested(token, () => this.unary());
      const operator = token.kind === 'ident' ? '!' : (token.text as '-' | '+' | '!');
      return { type: 'unary', operator, operand, start: token.start, end: operand.end };
    }
    return this.primary();
  }

  private primary(): FormulaNode {
    const token = this.take();
    switch (token.kind) {
      case 'number':
        return { type: 'number', value: token.value!, start: token.start, end: token.end };
      case 'string':
        return { type: 'string', value: token.text, start: token.start, end: token.end };
      case 'field': {
        const [table, field] = token.text.includes('.') ? token.text.split('.') : [undefined, token.text];
        return { type: 'field', code: token.text, field, ...(table ? { table } : {}), start: token.start, end: token.end };
      }
      case 'ident':
        return this.identifier(token);
      case 'op':
        if (token.text === '(') {
          if (this.isOp(')')) throw new FormulaException('括号内缺少内容', token.start, this.peek().end);
          const inner = this.nested(token, () => this.or());
          if (!this.isOp(')')) throw new FormulaException('缺少 )', token.start, this.peek().start);
          this.take();
          return { ...inner, start: token.start, end: this.tokens[this.index - 1].end };
        }
        throw new FormulaException(token.text === ')' ? '多余的 )' : `${token.text} 前面缺少内容`, token.start, token.end);
      default:
        throw new FormulaException(this.index <= 1 ? '公式为空' : '公式不完整：末尾缺少内容', token.start, token.end);
    }
  }

  private identifier(token: Token): FormulaNode {
    const upper = token.text.toUpperCase();
    const callsFunction = this.isOp('(');
    if (!callsFunction && (upper === 'TRUE' || upper === 'FALSE')) {
      return { type: 'boolean', value: upper === 'TRUE', start: token.start, end: token.end };
    }
    if (!callsFunction) {
      throw new FormulaException(`无法识别的名称 ${token.text}：字段请写作 {${token.text}}，文字请加引号，函数后面要有括号`, token.start, token.end);
    }
    const info = formulaFunction(upper);
    if (!info) throw new FormulaException(`未知函数 ${token.text}`, token.start, token.end);
    this.take();
    const args: FormulaNode[] = [];
    if (!this.isOp(')')) {
      for (;;) {
        if (this.isOp(',') || this.isOp(')')) throw new FormulaException(`函数 ${info.name} 的参数不能为空`, this.peek().start, this.peek().end);
        args.push(this.nested(token, () => this.or()));
        if (this.isOp(',')) {
          this.take();
          continue;
        }
        break;
      }
    }
    const close = this.peek();
    if (!this.isOp(')')) throw new FormulaException(`函数 ${info.name} 缺少 )`, token.start, close.start);
    this.take();
    const node: FormulaNode = { type: 'call', name: info.name, nameEnd: token.end, args, start: token.start, end: close.end };
    const max = info.maxArgs ?? Infinity;
    if (args.length < info.minArgs || args.length > max) {
      const expected = info.minArgs === max ? `需要 ${max} 个参数` : max === Infinity ? `至少需要 ${info.minArgs} 个参数` : `需要 ${info.minArgs} 到 ${max} 个参数`;
      throw new FormulaException(`函数 ${info.name} ${expected}，实际 ${args.length} 个`, node.start, node.end);
    }
    return node;
  }
}

function describe(token: Token): string {
  if (token.kind === 'field') return `{${token.text}}`;
  if (token.kind === 'string') return `"${token.text}"`;
  return token.text;
}

function depthOf(root: FormulaNode): number {
  let deepest = 0;
  const stack: [FormulaNode, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    if (node.type === 'unary') stack.push([node.operand, depth + 1]);
    else if (node.type === 'binary') stack.push([node.left, depth + 1], [node.right, depth + 1]);
    else if (node.type === 'call') for (const arg of node.args) stack.push([arg, depth + 1]);
  }
  return deepest;
}

/** Parses an expression; never throws. */
export function parseFormula(expression: string): ParseResult {
  try {
    const ast = new Parser(tokenize(expression)).parse();
    if (depthOf(ast) > MAX_TREE_DEPTH) throw new FormulaException(`公式过于复杂（运算超过${MAX_TREE_DEPTH}层）`, ast.start, ast.end);
    return { ast, errors: [] };
  } catch (error) {
    if (error instanceof FormulaException) return { ast: null, errors: [error.toError()] };
    throw error;
  }
}
