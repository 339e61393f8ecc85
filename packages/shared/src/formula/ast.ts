/** The formula syntax tree. Every node carries its source span: `start` inclusive, `end` exclusive (UTF-16 offsets). */

export interface Span {
  start: number;
  end: number;
}

/** A problem found while parsing, checking or evaluating, with the part of the expression it is about. */
export interface FormulaError extends Span {
  /** zh-CN text for the editor. */
  message: string;
}

export type BinaryOperator = '+' | '-' | '*' | '/' | '&' | '=' | '!=' | '<' | '<=' | '>' | '>=' | '&&' | '||';
export type UnaryOperator = '-' | '+' | '!';

export type FormulaNode =
  | (Span & { type: 'number'; value: number })
  | (Span & { type: 'string'; value: string })
  | (Span & { type: 'boolean'; value: boolean })
  /** `{Code}` or `{SubTable.Code}`: `code` as written inside the braces, `table` set for the second form. */
  | (Span & { type: 'field'; code: string; table?: string; field: string })
  | (Span & { type: 'unary'; operator: UnaryOperator; operand: FormulaNode })
  | (Span & { type: 'binary'; operator: BinaryOperator; left: FormulaNode; right: FormulaNode })
  /** `name` upper-cased; `nameEnd` ends the name, for errors about the function itself. */
  | (Span & { type: 'call'; name: string; nameEnd: number; args: FormulaNode[] });

export type FieldNode = Extract<FormulaNode, { type: 'field' }>;
export type CallNode = Extract<FormulaNode, { type: 'call' }>;

/** Thrown inside the evaluator and the parser; callers get it back as a FormulaError. */
export class FormulaException extends Error {
  constructor(message: string, readonly start: number, readonly end: number) {
    super(message);
  }
  toError(): FormulaError {
    return { message: this.message, start: this.start, end: this.end };
  }
}

/** Every node below `node`, itself first (depth first, source order). */
export function* walkFormula(node: FormulaNode): Generator<FormulaNode> {
  yield node;
  if (node.type === 'unary') yield* walkFormula(node.operand);
  else if (node.type === 'binary') {
    yield* walkFormula(node.left);
    yield* walkFormula(node.right);
  } else if (node.type === 'call') for (const arg of node.args) yield* walkFormula(arg);
}
