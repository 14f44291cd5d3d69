// Shared helpers of the grammar tests.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, resolve, LineIndex, ast, type Diagnostic } from '../../grammar/src/index.js';

export const examplesDir = join(import.meta.dirname, '../../examples');

/** every examples/*.layout as [name, text] */
export function examples(): [string, string][] {
  return readdirSync(examplesDir)
    .filter((f) => f.endsWith('.layout'))
    .sort()
    .map((f) => [f, readFileSync(join(examplesDir, f), 'utf8')]);
}

/** parse + resolve, as the check facade runs them */
export function frontEnd(text: string) {
  const p = parse(text);
  const r = resolve(p.file, p.lines);
  return { file: p.file, lines: p.lines, resolution: r, diagnostics: [...p.diagnostics, ...r.diagnostics] };
}

/** `L:C-L:C code: message` (1-based), sorted by position */
export function show(text: string, ds: Diagnostic[]): string[] {
  const lines = new LineIndex(text);
  return [...ds]
    .sort((a, b) => a.range.start - b.range.start || a.range.end - b.range.end)
    .map((d) => `${lines.format(d.range.start)}-${lines.format(d.range.end)} ${d.code}: ${d.message}`);
}

/** every node of the file, depth first, with its parent */
export function walk(file: ast.File): { node: ast.AnyNode; parent?: ast.AnyNode }[] {
  const out: { node: ast.AnyNode; parent?: ast.AnyNode }[] = [];
  const stack: { node: ast.AnyNode; parent?: ast.AnyNode }[] = [{ node: file }];
  while (stack.length) {
    const e = stack.pop()!;
    out.push(e);
    const kids = ast.children(e.node);
    for (let i = kids.length - 1; i >= 0; i--) stack.push({ node: kids[i], parent: e.node });
  }
  return out;
}

/** a compact s-expression of an expression, for precedence and shape tests */
export function sexpr(e: ast.Expr | ast.Slice): string {
  switch (e.kind) {
    case 'Int': return e.value.toString();
    case 'String': return JSON.stringify(e.value);
    case 'Name': return e.name;
    case 'Unary': return `(${e.op} ${sexpr(e.operand)})`;
    case 'Binary': return `(${e.op} ${sexpr(e.left)} ${sexpr(e.right)})`;
    case 'If': return `(if ${sexpr(e.cond)} ${sexpr(e.then)} ${sexpr(e.else)})`;
    case 'Call': return `(${e.callee.name}${e.args.map((a) => ' ' + sexpr(a)).join('')})`;
    case 'MethodCall': return `(.${e.method.name} ${sexpr(e.receiver)}${e.args.map((a) => ' ' + sexpr(a)).join('')})`;
    case 'Index': return `(index ${sexpr(e.receiver)}${e.indices.map((a) => ' ' + sexpr(a)).join('')})`;
    case 'Slice': return `(: ${e.start ? sexpr(e.start) : '_'} ${e.stop ? sexpr(e.stop) : '_'}${e.step ? ' ' + sexpr(e.step) : ''})`;
    case 'Range': return `(range ${sexpr(e.start)} ${sexpr(e.stop)}${e.step ? ' ' + sexpr(e.step) : ''})`;
    case 'List': return `[${e.items.map(sexpr).join(' ')}]`;
    case 'Tuple': return `(tuple${e.items.map((a) => ' ' + sexpr(a)).join('')})`;
    case 'Error': return e.partial ? `(error ${sexpr(e.partial)})` : 'error';
  }
}

const keywordOf: Partial<Record<ast.AnyNode['kind'], string[]>> = {
  Param: ['param', 'const'], Let: ['let'], Layout: ['layout'], Perm: ['perm'], Kernel: ['kernel'], Schedule: ['schedule'],
  PermInverse: ['inverse'], If: ['if'],
};

/**
 * Checks that every node's range slices back to its own source text: ranges nest in their
 * parent, siblings are in order and do not overlap, no range starts or ends with white space,
 * leaves slice to their name/text, operators/brackets sit where the node says. `complete`:
 * the text has no syntax errors, so closing brackets are all present. Returns the problems.
 */
export function rangeProblems(text: string, file: ast.File, complete: boolean): string[] {
  const problems: string[] = [];
  const where = (n: ast.AnyNode) => `${n.kind} ${n.range.start}-${n.range.end} ${JSON.stringify(text.slice(n.range.start, n.range.end)).slice(0, 60)}`;
  for (const { node, parent } of walk(file)) {
    const { start, end } = node.range;
    const s = text.slice(start, end);
    if (!(Number.isInteger(start) && Number.isInteger(end) && 0 <= start && start <= end && end <= text.length)) {
      problems.push(`bad range: ${where(node)}`);
      continue;
    }
    if (node.kind !== 'File' && s !== s.trim()) problems.push(`untrimmed: ${where(node)}`);
    if (complete && !balanced(s)) problems.push(`unbalanced brackets: ${where(node)}`);
    // an empty Error node (a missing operand) may sit in the white space next to its parent
    const hole = node.kind === 'Error' && start === end;
    if (parent && !hole && (start < parent.range.start || end > parent.range.end)) problems.push(`outside its parent ${where(parent)}: ${where(node)}`);
    const kids = ast.children(node);
    for (let i = 1; i < kids.length; i++) {
      if (kids[i].range.start < kids[i - 1].range.end) problems.push(`siblings overlap or are out of order in ${where(node)}: ${where(kids[i - 1])} / ${where(kids[i])}`);
    }
    switch (node.kind) {
      case 'Ident': case 'Name': if (s !== node.name) problems.push(`name mismatch: ${where(node)}`); break;
      case 'Int': if (s !== node.text) problems.push(`int mismatch: ${where(node)}`); break;
      case 'String': if (!s.startsWith('"')) problems.push(`string without quote: ${where(node)}`); break;
      case 'Binary': {
        const op = text.slice(node.opRange.start, node.opRange.end);
        if (op !== node.op) problems.push(`operator mismatch '${op}': ${where(node)}`);
        if (node.opRange.start < node.left.range.end || node.opRange.end > node.right.range.start) problems.push(`operator outside its operands: ${where(node)}`);
        break;
      }
      case 'Unary': if (!s.startsWith(node.op)) problems.push(`unary op mismatch: ${where(node)}`); break;
      case 'Call': case 'MethodCall': case 'Step': {
        const a = text.slice(node.argsRange.start, node.argsRange.end);
        if (!a.startsWith('(') || (complete && !a.endsWith(')'))) problems.push(`argsRange: ${where(node)}`);
        if (node.argsRange.end !== end) problems.push(`call does not end with its arguments: ${where(node)}`);
        if (node.kind === 'MethodCall' && text.slice(node.receiver.range.end, node.method.range.start).replace(/#[^\n\r]*/g, '').replace(/[\s)]/g, '') !== '.') {
          problems.push(`no '.' before the method: ${where(node)}`);
        }
        break;
      }
      case 'List': if (!s.startsWith('[') || (complete && !s.endsWith(']'))) problems.push(`list brackets: ${where(node)}`); break;
      case 'Tuple': if (!s.startsWith('(') || (complete && !s.endsWith(')'))) problems.push(`tuple parentheses: ${where(node)}`); break;
      case 'Index': if (complete && !s.endsWith(']')) problems.push(`index bracket: ${where(node)}`); break;
      case 'Kernel': case 'Schedule': {
        const b = text.slice(node.bodyRange.start, node.bodyRange.end);
        if (complete && !(b.startsWith('{') && b.endsWith('}'))) problems.push(`bodyRange: ${where(node)}`);
        if (node.bodyRange.end !== end) problems.push(`block does not end with its body: ${where(node)}`);
        break;
      }
    }
    const kws = keywordOf[node.kind];
    if (kws && !kws.some((k) => s.startsWith(k))) problems.push(`does not start with its keyword: ${where(node)}`);
  }
  return problems;
}

/** brackets balance in `s`, outside comments and strings */
export function balanced(s: string): boolean {
  const stack: string[] = [];
  const pairs: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '#') {
      while (i < s.length && s[i] !== '\n' && s[i] !== '\r') i++;
    } else if (c === '"') {
      for (i++; i < s.length && s[i] !== '"'; i++) if (s[i] === '\\') i++;
    } else if (c === '(' || c === '[' || c === '{') stack.push(c);
    else if (c in pairs && stack.pop() !== pairs[c]) return false;
  }
  return stack.length === 0;
}
