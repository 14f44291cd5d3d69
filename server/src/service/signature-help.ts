// Signature help for constructors, methods, `min`/`max`, user perms and PEAK primitives: the
// innermost unclosed `(` before the cursor names the callee; commas at its level count arguments.
import type { TokenInfo } from '../../../grammar/src/token-info.js';
import type { LayoutDocument } from './document.js';
import { constructor as builtinConstructor, method as builtinMethod, primitive as builtinPrimitive, signatureLabel } from './builtins.js';

export interface SignatureInfo {
  label: string;
  documentation: string;
  /** each parameter's label, a substring of `label` */
  parameters: { label: string; documentation: string }[];
  activeParameter: number;
}

const argDocs: Record<string, [string, string]> = {
  handle: ['handle', 'a handle bound by `findOp`'],
  sizes: ['sizes', 'a list of sizes, one per dimension'],
  operands: ['operands', 'a list of operand indices (0 = A, 1 = B)'],
  int: ['factor', 'an integer'],
  opName: ['op', 'the payload op\'s name, a string such as "linalg.matmul"'],
};

export function signatureHelp(doc: LayoutDocument, offset: number): SignatureInfo | undefined {
  const tokens = doc.tokens.filter((t) => t.category !== 'comment' && t.range.end <= offset);
  // innermost unclosed '('
  let depth = 0;
  let commas = 0;
  let open = -1;
  for (let i = tokens.length - 1; i >= 0; i--) {
    const t = tokens[i].text;
    if (tokens[i].range.end > offset) continue;
    if (t === ')' || t === ']') depth++;
    else if (t === '[') { if (depth > 0) depth--; else commas = 0; }
    else if (t === '(') {
      if (depth > 0) depth--;
      else { open = i; break; }
    } else if (t === ',' && depth === 0) commas++;
    else if (t === '{' || t === '}') return undefined;
  }
  if (open <= 0) return undefined;
  // commas inside a list at top level: recount at the '(' level only
  commas = countTopLevelCommas(tokens, open);
  const callee = tokens[open - 1];
  if (callee.category === 'punctuation' || callee.category === 'operator') return undefined;
  const isMethod = tokens[open - 2]?.text === '.';
  const name = callee.text;
  if (isMethod) {
    const m = builtinMethod(name);
    return m ? fromBuiltin(m, commas) : undefined;
  }
  const p = builtinPrimitive(name);
  if (p && inSchedule(tokens, open)) {
    const kinds = [...p.args, ...p.optionalArgs];
    const params = kinds.map((k, i) => {
      const [label, documentation] = argDocs[k] ?? [k, ''];
      return { label: i >= p.args.length ? `${label}?` : label, documentation };
    });
    const label = `${p.name}(${params.map((x) => x.label).join(', ')})`;
    return { label, documentation: p.summary, parameters: params, activeParameter: Math.min(commas, Math.max(0, params.length - 1)) };
  }
  const c = builtinConstructor(name);
  if (c) return fromBuiltin(c, commas);
  // a user perm: `antidiag(3)`
  const def = doc.symbols.global(name);
  if (def?.kind === 'perm' && def.container?.kind === 'Perm') {
    const perm = def.container;
    const params = perm.params.map((x) => ({ label: x.name, documentation: 'size parameter' }));
    const label = `${perm.name.name}(${params.map((x) => x.label).join(', ')})[${perm.indices.map((x) => x.name).join(', ')}]`;
    return { label, documentation: 'user permutation: its size arguments', parameters: params, activeParameter: Math.min(commas, Math.max(0, params.length - 1)) };
  }
  return undefined;
}

function fromBuiltin(b: NonNullable<ReturnType<typeof builtinConstructor>>, commas: number): SignatureInfo {
  const parameters = b.params.map((p) => ({ label: p.rest ? `${p.label}, ...` : p.label, documentation: p.doc }));
  const last = b.params.length - 1;
  const active = last >= 0 && b.params[last].rest ? Math.min(commas, last) : Math.min(commas, Math.max(0, last));
  return { label: signatureLabel(b), documentation: b.doc, parameters, activeParameter: active };
}

function countTopLevelCommas(tokens: TokenInfo[], open: number): number {
  let depth = 0;
  let n = 0;
  for (let i = open + 1; i < tokens.length; i++) {
    const t = tokens[i].text;
    if (t === '(' || t === '[') depth++;
    else if (t === ')' || t === ']') depth--;
    else if (t === ',' && depth === 0) n++;
  }
  return n;
}

function inSchedule(tokens: TokenInfo[], at: number): boolean {
  for (let i = at; i >= 0; i--) {
    const t = tokens[i].text;
    if (t === '{') {
      for (let j = i - 1; j >= 0; j--) {
        if (tokens[j].text === 'schedule') return true;
        if (tokens[j].text === 'kernel') return false;
      }
      return false;
    }
    if (t === '}') return false;
  }
  return false;
}
