/**
 * QStash's `Upstash-Retry-Delay` language (docs: features/retry), evaluated without running code: an
 * expression of numbers, the variable `retried` (retries so far, from 0), `+ - * /`, unary minus,
 * parentheses and the documented functions pow, sqrt, abs, exp, floor, ceil, round, min, max. The
 * value is a delay in milliseconds.
 *
 * A small recursive-descent parser (expression -> term -> factor -> primary) turns the text into a
 * tree once; evaluation walks the tree. Anything outside the grammar (names, strings, members,
 * statements, commas outside a call, trailing text) is rejected with an error naming the position;
 * length and nesting are bounded so hostile input cannot exhaust the stack.
 */

/** QStash's default backoff (docs: features/retry) in the retry-delay language: n = retried + 1. */
export const PRODUCTION_RETRY_DELAY = 'min(86400, exp(2.5 * (retried + 1))) * 1000';

const MAX_LENGTH = 500;
const MAX_DEPTH = 32;

const FUNCTIONS: Record<string, { arity: [number, number]; apply: (args: number[]) => number }> = {
  pow: { arity: [2, 2], apply: ([a, b]) => a! ** b! },
  sqrt: { arity: [1, 1], apply: ([a]) => Math.sqrt(a!) },
  abs: { arity: [1, 1], apply: ([a]) => Math.abs(a!) },
  exp: { arity: [1, 1], apply: ([a]) => Math.exp(a!) },
  floor: { arity: [1, 1], apply: ([a]) => Math.floor(a!) },
  ceil: { arity: [1, 1], apply: ([a]) => Math.ceil(a!) },
  round: { arity: [1, 1], apply: ([a]) => Math.round(a!) },
  min: { arity: [1, Infinity], apply: (args) => Math.min(...args) },
  max: { arity: [1, Infinity], apply: (args) => Math.max(...args) },
};

export type RetryDelayExpr =
  | { kind: 'number'; value: number }
  | { kind: 'retried' }
  | { kind: 'negate'; operand: RetryDelayExpr }
  | { kind: 'binary'; op: '+' | '-' | '*' | '/'; left: RetryDelayExpr; right: RetryDelayExpr }
  | { kind: 'call'; name: string; args: RetryDelayExpr[] };

type Token = { kind: 'number'; value: number; at: number } | { kind: 'name' | 'punct'; text: string; at: number };

const TOKEN = /\s*(?:(\d+(?:\.\d*)?|\.\d+)|([A-Za-z_]\w*)|([-+*/(),]))/y;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    if (/^\s*$/.test(text.slice(TOKEN.lastIndex))) break;
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    if (!m) throw new Error(`invalid retry delay expression ${text}: unexpected character at ${at}`);
    if (m[1] !== undefined) tokens.push({ kind: 'number', value: Number(m[1]), at });
    else if (m[2] !== undefined) tokens.push({ kind: 'name', text: m[2], at });
    else tokens.push({ kind: 'punct', text: m[3]!, at });
  }
  return tokens;
}

class Parser {
  private pos = 0;
  private depth = 0;
  private readonly text: string;
  private readonly tokens: Token[];
  constructor(text: string, tokens: Token[]) {
    this.text = text;
    this.tokens = tokens;
  }

  parse(): RetryDelayExpr {
    const expr = this.expression();
    if (this.pos < this.tokens.length) this.fail('unexpected trailing input');
    return expr;
  }

  /** expression := term (('+' | '-') term)* */
  private expression(): RetryDelayExpr {
    if (++this.depth > MAX_DEPTH) this.fail('nested too deeply');
    let left = this.term();
    while (this.atPunct('+') || this.atPunct('-')) {
      const op = this.take().text as '+' | '-';
      left = { kind: 'binary', op, left, right: this.term() };
    }
    this.depth--;
    return left;
  }

  /** term := factor (('*' | '/') factor)* */
  private term(): RetryDelayExpr {
    let left = this.factor();
    while (this.atPunct('*') || this.atPunct('/')) {
      const op = this.take().text as '*' | '/';
      left = { kind: 'binary', op, left, right: this.factor() };
    }
    return left;
  }

  /** factor := '-' factor | '+' factor | primary */
  private factor(): RetryDelayExpr {
    if (this.atPunct('-') || this.atPunct('+')) {
      const sign = this.take().text;
      if (++this.depth > MAX_DEPTH) this.fail('nested too deeply');
      const operand = this.factor();
      this.depth--;
      return sign === '-' ? { kind: 'negate', operand } : operand;
    }
    return this.primary();
  }

  /** primary := number | 'retried' | function '(' expression (',' expression)* ')' | '(' expression ')' */
  private primary(): RetryDelayExpr {
    const token = this.tokens[this.pos];
    if (!token) return this.fail('unexpected end');
    if (token.kind === 'number') {
      this.pos++;
      return { kind: 'number', value: token.value };
    }
    if (token.kind === 'name') return this.nameOrCall(token.text);
    if (this.atPunct('(')) {
      this.pos++;
      const inner = this.expression();
      this.expect(')');
      return inner;
    }
    return this.fail(`unexpected ${token.text}`);
  }

  private nameOrCall(name: string): RetryDelayExpr {
    this.pos++;
    if (name === 'retried') return { kind: 'retried' };
    const fn = Object.hasOwn(FUNCTIONS, name) ? FUNCTIONS[name]! : this.fail(`unknown name ${name}`);
    this.expect('(');
    const args = [this.expression()];
    while (this.atPunct(',')) {
      this.pos++;
      args.push(this.expression());
    }
    this.expect(')');
    const [least, most] = fn.arity;
    if (args.length < least || args.length > most) this.fail(`${name} takes ${least}..${most} arguments`);
    return { kind: 'call', name, args };
  }

  private atPunct(text: string): boolean {
    const token = this.tokens[this.pos];
    return token?.kind === 'punct' && token.text === text;
  }

  private take(): Token & { text: string } {
    return this.tokens[this.pos++] as Token & { text: string };
  }

  private expect(text: string): void {
    if (!this.atPunct(text)) this.fail(`expected ${text}`);
    this.pos++;
  }

  private fail(why: string): never {
    const at = this.tokens[this.pos]?.at ?? this.text.length;
    throw new Error(`invalid retry delay expression ${this.text}: ${why} at ${at}`);
  }
}

/** Parses a retry-delay expression into its tree; throws on anything outside the language. */
export function parseRetryDelay(text: string): RetryDelayExpr {
  if (text.length > MAX_LENGTH) throw new Error(`invalid retry delay expression: longer than ${MAX_LENGTH} characters`);
  return new Parser(text, tokenize(text)).parse();
}

function evaluate(expr: RetryDelayExpr, retried: number): number {
  switch (expr.kind) {
    case 'number':
      return expr.value;
    case 'retried':
      return retried;
    case 'negate':
      return -evaluate(expr.operand, retried);
    case 'call':
      return FUNCTIONS[expr.name]!.apply(expr.args.map((a) => evaluate(a, retried)));
    case 'binary': {
      const l = evaluate(expr.left, retried);
      const r = evaluate(expr.right, retried);
      if (expr.op === '+') return l + r;
      if (expr.op === '-') return l - r;
      if (expr.op === '*') return l * r;
      return l / r;
    }
  }
}

/** The delay in ms an expression gives for `retried`; throws unless it is a finite, non-negative number. */
export function evalRetryDelay(text: string, retried: number): number {
  const value = evaluate(parseRetryDelay(text), retried);
  if (!Number.isFinite(value) || value < 0) throw new Error(`retry delay ${text} is not a non-negative number`);
  return value;
}
