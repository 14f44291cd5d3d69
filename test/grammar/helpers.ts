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
    case 'Slice': return `(: ${e.start ? sexpr(e.start) : '_'} ${e.stop ? sexpr(e.stop) : '_'})`;
    case 'List': return `[${e.items.map(sexpr).join(' ')}]`;
    case 'Tuple': return `(tuple${e.items.map((a) => ' ' + sexpr(a)).join('')})`;
    case 'Error': return e.partial ? `(error ${sexpr(e.partial)})` : 'error';
  }
}
