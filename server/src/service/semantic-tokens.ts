// Semantic tokens: each token of the file classified by what its name refers to (a param, a
// layout, a perm, a free index symbol...), beyond what the TextMate grammar can see.
import type * as ast from '../../../grammar/src/ast.js';
import { children as childrenOf } from '../../../grammar/src/ast.js';
import type { LayoutDocument } from './document.js';
import { constructor as builtinConstructor, method as builtinMethod, primitive as builtinPrimitive } from './builtins.js';
import type { SymbolKind } from './symbols.js';

export const tokenTypes = [
  'keyword', 'number', 'string', 'comment', 'operator',
  'variable', 'parameter', 'function', 'method', 'class', 'type', 'namespace', 'enumMember',
] as const;
export const tokenModifiers = ['declaration', 'readonly', 'defaultLibrary'] as const;

export type SemanticType = (typeof tokenTypes)[number];
export type SemanticModifier = (typeof tokenModifiers)[number];

export interface SemanticToken {
  range: ast.Range;
  type: SemanticType;
  modifiers: SemanticModifier[];
}

const byKind: Record<SymbolKind, { type: SemanticType; modifiers: SemanticModifier[] }> = {
  param: { type: 'variable', modifiers: ['readonly'] },
  const: { type: 'variable', modifiers: ['readonly'] },
  let: { type: 'variable', modifiers: [] },
  layout: { type: 'type', modifiers: [] },
  linear: { type: 'type', modifiers: [] },
  perm: { type: 'function', modifiers: [] },
  permParam: { type: 'parameter', modifiers: [] },
  permIndex: { type: 'parameter', modifiers: [] },
  inverseArg: { type: 'parameter', modifiers: [] },
  kernel: { type: 'function', modifiers: [] },
  binding: { type: 'variable', modifiers: [] },
  free: { type: 'parameter', modifiers: [] },
  schedule: { type: 'namespace', modifiers: [] },
  handle: { type: 'variable', modifiers: [] },
};

export function semanticTokens(doc: LayoutDocument): SemanticToken[] {
  const { m: special, opRanges } = specialNames(doc.file);
  const ix = doc.symbols;
  const defAt = new Map(ix.defs.map((d) => [d.range.start, d]));
  const refAt = new Map(ix.refs.filter((r) => r.def).map((r) => [r.range.start, r.def!]));
  const out: SemanticToken[] = [];
  const tokens = doc.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    switch (t.category) {
      case 'keyword': out.push(tok(t.range, 'keyword')); continue;
      case 'number': out.push(tok(t.range, 'number')); continue;
      case 'string': out.push(tok(t.range, 'string')); continue;
      case 'comment': out.push(tok(t.range, 'comment')); continue;
      case 'operator': out.push(tok(t.range, 'operator')); continue;
      case 'punctuation': continue;
    }
    const start = t.range.start;
    const sp = special.get(start);
    if (sp) { out.push({ range: t.range, type: sp.type, modifiers: [...sp.modifiers] }); continue; }
    // every name segment of a payload op such as `linalg.matmul`
    if (opRanges.some((r) => r.start <= start && t.range.end <= r.end)) { out.push(tok(t.range, 'type', ['defaultLibrary'])); continue; }
    const def = defAt.get(start);
    if (def && def.range.end === t.range.end) {
      const k = byKind[def.kind];
      out.push({ range: t.range, type: k.type, modifiers: ['declaration', ...k.modifiers] });
      continue;
    }
    const ref = refAt.get(start);
    if (ref) {
      const k = byKind[ref.kind];
      out.push({ range: t.range, type: k.type, modifiers: [...k.modifiers] });
      continue;
    }
    const prev = tokens[i - 1];
    if (prev && prev.text === '.' && builtinMethod(t.text)) { out.push(tok(t.range, 'method', ['defaultLibrary'])); continue; }
    const bi = builtinConstructor(t.text);
    if (bi) { out.push(tok(t.range, bi.kind === 'function' ? 'function' : 'class', ['defaultLibrary'])); continue; }
    out.push(tok(t.range, 'variable'));
  }
  return out;
}

function tok(range: ast.Range, type: SemanticType, modifiers: SemanticModifier[] = []): SemanticToken {
  return { range, type, modifiers };
}

/** Names whose meaning comes from where they stand: primitives, targets, GPUs, payload ops, methods. */
function specialNames(file: ast.File): { m: Map<number, { type: SemanticType; modifiers: SemanticModifier[] }>; opRanges: ast.Range[] } {
  const m = new Map<number, { type: SemanticType; modifiers: SemanticModifier[] }>();
  const opRanges: ast.Range[] = [];
  const lib = (type: SemanticType) => ({ type, modifiers: ['defaultLibrary'] as SemanticModifier[] });
  const visit = (n: ast.AnyNode): void => {
    if (n.kind === 'MethodCall' && builtinMethod(n.method.name)) m.set(n.method.range.start, lib('method'));
    if (n.kind === 'Step' && builtinPrimitive(n.primitive.name)) m.set(n.primitive.range.start, lib('function'));
    for (const c of childrenOf(n)) visit(c);
  };
  for (const d of file.decls) {
    if (d.kind === 'Kernel') {
      if (d.target) m.set(d.target.range.start, lib('enumMember'));
      if (d.template?.kind === 'builtin') m.set(d.template.name.range.start, lib('function'));
    }
    if (d.kind === 'Schedule') {
      if (d.gpu) m.set(d.gpu.range.start, lib('enumMember'));
      if (d.op) opRanges.push(d.op.range);
    }
    visit(d);
  }
  return { m, opRanges };
}
