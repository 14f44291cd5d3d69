// The outline of a file (document symbols, with children) and its flat form for workspace symbols.
import type * as ast from '../../../grammar/src/ast.js';

export type OutlineKind = 'param' | 'const' | 'let' | 'layout' | 'perm' | 'permParam' | 'permIndex' | 'kernel' | 'binding' | 'schedule' | 'step';

export interface OutlineItem {
  name: string;
  detail: string;
  kind: OutlineKind;
  /** the whole declaration */
  range: ast.Range;
  /** the name */
  selectionRange: ast.Range;
  children: OutlineItem[];
}

const MAX_DETAIL = 60;

/**
 * A declaration's items, kept by declaration object: the chunked parse keeps an unchanged
 * declaration's object (and text) from one version to the next, moving its ranges in place, and an
 * item holds those range objects, so it is the same for every version that has the declaration (at
 * 20,000 lines the outline of an edited version took 10 ms, most of a documentSymbol request's compute).
 * Shared: callers must not modify the items.
 */
const itemsOf = new WeakMap<ast.Decl, readonly OutlineItem[]>();

export function outline(file: ast.File, text: string): OutlineItem[] {
  const out: OutlineItem[] = [];
  for (const d of file.decls) {
    let items = itemsOf.get(d);
    if (!items) itemsOf.set(d, (items = declOutline(d, text)));
    for (const it of items) out.push(it);
  }
  return out;
}

/** The items of one declaration (`text`: the file's, which its ranges index), made now (`outline` keeps them). */
export function declOutline(d: ast.Decl, text: string): OutlineItem[] {
  const out: OutlineItem[] = [];
  const src = (r: ast.Range) => clip(text.slice(r.start, r.end));
  switch (d.kind) {
    case 'Param':
      for (const it of d.items) {
        if (!it.name?.name) continue;
        const cands = it.candidates ? ` in ${src(it.candidates.range)}` : '';
        out.push(item(it.name.name, `${d.isConst ? 'const' : 'param'} = ${src(it.value.range)}${cands}`, d.isConst ? 'const' : 'param', it.range, it.name.range));
      }
      break;
    case 'Let':
      if (d.name?.name) out.push(item(d.name.name, `= ${src(d.value.range)}`, 'let', d.range, d.name.range));
      break;
    case 'Layout':
      if (d.name?.name) out.push(item(d.name.name, src(d.value.range), 'layout', d.range, d.name.range));
      break;
    case 'Perm': {
      if (!d.name?.name) break;
      const p = item(d.name.name, `(${d.params.map((x) => x.name).join(', ')})[${d.indices.map((x) => x.name).join(', ')}]`, 'perm', d.range, d.name.range);
      for (const x of d.params) p.children.push(item(x.name, 'size parameter', 'permParam', x.range, x.range));
      for (const x of d.indices) p.children.push(item(x.name, 'index', 'permIndex', x.range, x.range));
      out.push(p);
      break;
    }
    case 'Kernel': {
      if (!d.name?.name) break;
      const tpl = d.template?.kind === 'file' ? ` template "${d.template.path.value}"` : d.template ? ` builtin ${d.template.name.name}` : '';
      const k = item(d.name.name, `target ${d.target?.value ?? '?'}${tpl}`, 'kernel', d.range, d.name.range);
      for (const b of d.bindings) {
        for (const n of b.names) k.children.push(item(n.name, `= ${src(b.value.range)}`, 'binding', b.range, n.range));
      }
      out.push(k);
      break;
    }
    case 'Schedule': {
      if (!d.name?.name) break;
      const op = d.op ? `for ${d.op.name}(${d.op.args.map((a) => src(a.range)).join(', ')})` : '';
      const s = item(d.name.name, `${op}${d.gpu ? ` on ${d.gpu.name}` : ''}`, 'schedule', d.range, d.name.range);
      for (const st of d.steps) {
        const name = st.result ? `${st.result.name} = ${st.primitive.name}` : st.primitive.name;
        s.children.push(item(name, src(st.argsRange), 'step', st.range, st.result?.range ?? st.primitive.range));
      }
      out.push(s);
      break;
    }
  }
  return out;
}

export interface FlatSymbol {
  name: string;
  kind: OutlineKind;
  range: ast.Range;
  container?: string;
}

/** Top-level names plus kernel and schedule members, for workspace symbol search. */
export function flatSymbols(file: ast.File, text: string): FlatSymbol[] {
  const out: FlatSymbol[] = [];
  for (const it of outline(file, text)) {
    out.push({ name: it.name, kind: it.kind, range: it.selectionRange });
    if (it.kind === 'kernel') for (const c of it.children) out.push({ name: c.name, kind: c.kind, range: c.selectionRange, container: it.name });
  }
  return out;
}

/** Case-insensitive subsequence match, as editors do for symbol search. */
export function fuzzyMatch(query: string, name: string): boolean {
  const q = query.toLowerCase();
  const n = name.toLowerCase();
  let i = 0;
  for (const ch of n) if (i < q.length && ch === q[i]) i++;
  return i === q.length;
}

function item(name: string, detail: string, kind: OutlineKind, range: ast.Range, selectionRange: ast.Range): OutlineItem {
  return { name, detail, kind, range, selectionRange, children: [] };
}

function clip(s: string): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > MAX_DETAIL ? one.slice(0, MAX_DETAIL - 3) + '...' : one;
}
