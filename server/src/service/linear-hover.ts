// Hover markdown for linear layouts (docs/linear-layouts.md): bases, class, Triton attribute,
// broadcast, vector width and bank conflicts of the layout's access, the offset expression of a
// shared layout. Also F2 facts for a LEGO layout with power-of-two extents.
import type * as ast from '../../../grammar/src/ast.js';
import { Elaborator, type Model } from '../check/elaborate.js';
import { accessConflicts, checkLinear, memoryLayout, type LinearModel } from '../check/linear.js';
import * as F from '../f2/index.js';
import type { LayoutDocument } from './document.js';
import { closureOf, modelOfDecl } from './elaboration.js';
import { alsoKept } from './hover-cache.js';
import * as A from '../algebra/index.js';

/**
 * LEGO layouts' F2 facts (`legoLinearFacts`), by the layout's structure and the values of the symbols
 * it names (the facts read nothing else: extents and inverses at those values), across versions and
 * layouts: every tile of the same shape has the same facts.
 */
const factsKept = new Map<string, string | undefined>();
const FACTS_KEPT = 512;
const factsOn = alsoKept(() => factsKept.clear());

function factsKey(L: A.Layout, env: ReadonlyMap<string, bigint>): string | undefined {
  const structure = A.structureKey(L);
  if (structure === undefined) return undefined;
  const values = [...A.structureSymbols(L)].sort().map((n) => [n, env.get(n)?.toString() ?? null]);
  return JSON.stringify([structure, values]);
}

const fmt = (bs: readonly (readonly number[])[]) => (bs.length ? bs.map((b) => `(${b.join(', ')})`).join(' ') : '(none)');

/** The linear layouts of a document (cached per document version). */
const cache = new WeakMap<LayoutDocument, ReturnType<typeof analyse>>();
function analyse(doc: LayoutDocument) {
  const model = linearsModel(doc);
  return { model, analysis: checkLinear(doc.file, doc.symbols.resolution, model) };
}

/**
 * The model of the file's `linear` declarations and of the declarations they depend on
 * (elaboration.ts `closureOf`, their memory layouts included), in source order: what the linear
 * checks read, as the whole file's model has it, without elaborating the whole file (about
 * 200 ms at 10,000 lines, on the first hover of every version).
 */
function linearsModel(doc: LayoutDocument): Model {
  const needed = new Set<ast.Decl>();
  for (const d of doc.file.decls) if (d.kind === 'Linear') for (const c of closureOf(doc, d)) needed.add(c);
  const el = new Elaborator(doc.symbols.resolution, {});
  for (const d of [...needed].sort((a, b) => a.range.start - b.range.start)) el.guardedDecl(d);
  return el.model;
}
/** Does the file declare any `linear` layout (every layout hover asks: from the parse's index of rare declarations). */
export function hasLinearDecls(doc: LayoutDocument): boolean {
  const decls = doc.file.decls;
  return doc.rareDecls.some((j) => decls[j].kind === 'Linear');
}

function linearOf(doc: LayoutDocument) {
  let v = cache.get(doc);
  if (!v) cache.set(doc, (v = analyse(doc)));
  return v;
}

/** The elaborated `linear` declaration `name` of a document (for the picture), or undefined. */
export function linearNamed(doc: LayoutDocument, name: string): LinearModel | undefined {
  return linearOf(doc).analysis.linears.get(name);
}

export function linearMarkdown(m: LinearModel): string[] {
  const out: string[] = [];
  if (m.problem) return [`not a linear layout over F2: ${m.problem}`];
  if (m.class === 'not linear' && m.counterexample) {
    const c = m.counterexample;
    return [`**not linear** over F2: f(${c.x} ^ ${c.y}) = [${c.fxy.join(', ')}], f(${c.x}) ^ f(${c.y}) = [${c.fx.map((v, k) => v ^ c.fy[k]).join(', ')}]`];
  }
  const L = m.layout;
  if (!L) return out;
  out.push(`${m.kind} layout, shape \`[${L.shape.join(', ')}]\`, **${m.class}**${m.checked === 'exhaustive' ? ' (checked on every offset)' : typeof m.checked === 'number' ? ` (checked on ${m.checked} samples: probably)` : ''}`);
  out.push('', '| input | bases (logical coordinates, bit 0 first) |', '|---|---|');
  for (const i of L.ins) out.push(`| ${i.name} | ${fmt(i.bases)} |`);
  if (m.offset) out.push('', `affine: plus \`[${m.offset.join(', ')}]\``);
  if (F.isShared(L) && L.isInvertible()) {
    out.push('', `offset(${F.coordNames(L.outs.length).join(', ')}) = \`${F.offsetExpression(L)}\``);
    const cute = F.cuteSwizzle(L);
    if (cute && cute.B > 0) out.push('', `CuTe \`Swizzle<${cute.B}, ${cute.M}, ${cute.S}>\``);
  }
  if (!F.isShared(L)) {
    const free = Object.entries(L.freeBits()).filter(([, b]) => b.length);
    out.push('', free.length ? `broadcast: ${free.map(([k, b]) => `${k} bits ${b.join(', ')} free (${2 ** b.length}×)`).join('; ')}` : 'no broadcast (every input bit moves data)');
    out.push('', L.isDistributed() ? 'a Triton distributed layout (Def. 4.10)' : 'not a Triton distributed layout (Def. 4.10): needs `#ttg.linear`');
  }
  out.push('', `\`${F.tritonAttribute(L)}\``);
  return out;
}

/** Hover for the linear layout (or LEGO layout seen as one) named `name`, or undefined. */
export function linearHover(doc: LayoutDocument, name: string): string | undefined {
  try {
    const { model, analysis } = linearOf(doc);
    const m = analysis.linears.get(name);
    if (!m) return undefined;
    const lines = [`**linear** \`${name}\``, '', ...linearMarkdown(m)];
    if (m.access && m.layout) {
      const mem = memoryLayout(m.access.memory, doc.file, model, analysis.linears);
      if (typeof mem !== 'string') {
        try {
          const r = accessConflicts(m.layout, mem, m.access.elemBytes, m.access.vec);
          lines.push('', `${m.access.mode} through \`${m.access.memory}\`: vector ${r.vec} × ${m.access.elemBytes} B = ${r.vec * m.access.elemBytes * 8} bits per lane; **${r.wavefronts}** wavefronts per instruction (minimum ${r.minimum}${r.degree > 1 ? `, ${r.degree}-way conflict: lanes ${r.lanes.join(', ')}` : ''})`);
        } catch (e) {
          lines.push('', `${m.access.mode} through \`${m.access.memory}\`: ${(e as Error).message}`);
        }
      }
    }
    return lines.join('\n');
  } catch {
    return undefined;
  }
}

/** F2 facts of a LEGO layout (power-of-two extents), for its hover; undefined when not applicable. */
export function legoLinearFacts(doc: LayoutDocument, name: string): string | undefined {
  try {
    // the layout's own model (elaborated with what it depends on and kept per version) has its
    // value; the file's linear layouts only when it has `linear` declarations (one named `name` wins)
    const decl = doc.symbols.global(name)?.container;
    const linears = hasLinearDecls(doc) ? linearOf(doc) : undefined;
    const model = decl?.kind === 'Layout' ? modelOfDecl(doc, decl).model : linears?.model;
    if (!model) return undefined;
    const compute = () => legoFactsText(memoryLayout(name, doc.file, model, linears?.analysis.linears ?? new Map()));
    // a LEGO layout's facts are a function of its value: kept by its structure and the values of its
    // symbols (not where the file has `linear` declarations: one named `name` would answer instead)
    const L = decl?.kind === 'Layout' && !linears && factsOn() ? model.layouts.get(name)?.layout : undefined;
    const key = L && factsKey(L, model.env);
    if (key === undefined) return compute();
    if (!factsKept.has(key)) {
      if (factsKept.size >= FACTS_KEPT) factsKept.delete(factsKept.keys().next().value!);
      factsKept.set(key, compute());
    }
    return factsKept.get(key);
  } catch {
    return undefined;
  }
}

/** The F2 facts line of a LEGO layout (`memoryLayout`'s answer), when it has one. */
function legoFactsText(m: LinearModel | string | undefined): string | undefined {
  try {
    if (m === undefined) return undefined;
    if (typeof m === 'string' || m.problem) return undefined;
    if (!m.layout && m.class !== 'not linear') return undefined;
    const L = m.layout;
    const head = m.class === 'not linear' ? linearMarkdown(m)[0] : `as a linear layout over F2 (offset → coordinate): **${m.class}**; offset bases ${fmt(L!.basesOf(F.OFFSET))}`;
    return head;
  } catch {
    return undefined;
  }
}
