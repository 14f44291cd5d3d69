// Named temporaries in emitted kernels: when the expressions of one binding repeat a
// subexpression (the coordinates of one `inv`, a permutation body used twice), the repeated
// part is computed once into a temporary (expr/shared.ts), declared on lines inserted before the
// template line of the binding's first placeholder, with that line's indentation:
//   CUDA    `const auto NAME = TEXT;`     Triton  `NAME = TEXT`
// Only where that is certainly a statement position: outside any bracket, not a preprocessor or
// continued line, not a line starting with `}`/`else`/`elif`/`case`/..., the placeholder's line
// ends its statement (C: `;` or `{` at its end), and every later placeholder of the binding is
// in the same block (C: balanced braces in between; Python: no line indented less in between).
// Elsewhere the binding is printed inline, as before. Pure; never throws.
import { type Expr, printShared } from '../expr/index.js';
import type { ScannedTemplate } from './template.js';

export interface SharedBinding {
  /** placeholder names, one per expression */
  names: readonly string[];
  exprs: readonly Expr[];
}

export interface SharedPlan {
  /** the template text with the temporaries' lines inserted */
  text: string;
  /** values of the shared bindings' placeholders (temporaries by name) */
  values: Record<string, string>;
}

const NO_INSERT_BEFORE = /^(?:[}\])]|else\b|elif\b|except\b|finally\b|case\b|default\b|#|@|\.)/;

interface Line {
  start: number;
  end: number;
  text: string;
}

function linesOf(text: string): Line[] {
  const out: Line[] = [];
  let at = 0;
  for (;;) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    out.push({ start: at, end, text: text.slice(at, end) });
    if (nl < 0) return out;
    at = nl + 1;
  }
}

/** bracket depth ( [ before `offset`, and brace depth {, ignoring strings and comments roughly */
function depths(text: string, offset: number, lang: 'c' | 'py'): { paren: number; brace: number } {
  let paren = 0;
  let brace = 0;
  for (let i = 0; i < offset; i++) {
    const c = text[i];
    if (c === '"' || c === "'") {
      const q = c;
      for (i++; i < offset && text[i] !== q && text[i] !== '\n'; i++) if (text[i] === '\\') i++;
      continue;
    }
    if ((lang === 'py' && c === '#') || (lang === 'c' && c === '/' && text[i + 1] === '/')) {
      while (i < offset && text[i] !== '\n') i++;
      continue;
    }
    if (lang === 'c' && c === '/' && text[i + 1] === '*') {
      const e = text.indexOf('*/', i + 2);
      i = e < 0 ? offset : e + 1;
      continue;
    }
    if (c === '(' || c === '[') paren++;
    else if (c === ')' || c === ']') paren--;
    else if (c === '{') brace++;
    else if (c === '}') brace--;
  }
  return { paren, brace };
}

function identifiers(text: string): Set<string> {
  return new Set(text.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []);
}

/**
 * Plans the temporaries of `bindings` in `template` (for `target`). A binding without a
 * repeated subexpression, or whose placeholders are not in a statement position, is left out
 * (the caller prints it inline).
 */
export function planShared(template: ScannedTemplate, bindings: readonly SharedBinding[], target: 'cuda' | 'triton'): SharedPlan {
  const text = template.text;
  const lang = target === 'cuda' ? 'c' : 'py';
  // the template with every placeholder blanked out (`x`s), for bracket counting
  let plain = '';
  let at = 0;
  for (const p of template.placeholders) {
    plain += text.slice(at, p.offset) + 'x'.repeat(p.end - p.offset);
    at = p.end;
  }
  plain += text.slice(at);
  const lines = linesOf(text);
  const lineAt = (offset: number) => {
    let lo = 0;
    let hi = lines.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lines[mid].start <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const reserved = identifiers(text);
  const values: Record<string, string> = Object.create(null) as Record<string, string>;
  const inserts = new Map<number, string[]>();
  let n = 0;
  for (const b of bindings) {
    const places = template.placeholders.filter((p) => b.names.includes(p.name));
    if (places.length === 0) continue;
    const first = lineAt(places[0].offset);
    const last = lineAt(places[places.length - 1].offset);
    if (!statementLine(plain, lines, first, lang) || !sameBlock(plain, lines, first, last, lang)) continue;
    if (places.some((p) => !statementLine(plain, lines, lineAt(p.offset), lang))) continue;
    let s: ReturnType<typeof printShared>;
    try {
      s = printShared(b.exprs, target === 'cuda' ? 'c' : 'triton', { prefix: `lx${n}_`, reserved });
    } catch {
      continue;
    }
    if (s.temps.length === 0) continue;
    n++;
    const indent = /^[ \t]*/.exec(lines[first].text)![0];
    const decl = s.temps.map((t) => (lang === 'c' ? `${indent}const auto ${t.name} = ${t.text};` : `${indent}${t.name} = ${t.text}`));
    inserts.set(first, [...(inserts.get(first) ?? []), ...decl]);
    b.names.forEach((name, i) => (values[name] = s.results[i]));
  }
  if (inserts.size === 0) return { text, values };
  const out: string[] = [];
  lines.forEach((l, i) => {
    for (const d of inserts.get(i) ?? []) out.push(d);
    out.push(l.text);
  });
  return { text: out.join('\n'), values };
}

function statementLine(text: string, lines: Line[], i: number, lang: 'c' | 'py'): boolean {
  const l = lines[i];
  const trimmed = l.text.trim();
  if (NO_INSERT_BEFORE.test(trimmed)) return false;
  // the previous non-blank line must end a statement (not continue an expression or a macro)
  for (let k = i - 1; k >= 0; k--) {
    const p = lines[k].text.trim();
    if (p === '') continue;
    if (p.endsWith('\\') || p.endsWith(',') || /[-+*/%=<>&|^]$/.test(p)) return false;
    break;
  }
  if (depths(text, l.start, lang).paren !== 0) return false;
  const endDepth = depths(text, l.end, lang);
  if (endDepth.paren !== 0) return false;
  if (lang === 'c') {
    if (depths(text, l.start, lang).brace < 1) return false; // inside a function body
    const code = l.text.replace(/\/\/.*$/, '').trim();
    if (!(code.endsWith(';') || code.endsWith('{'))) return false;
  } else if (trimmed.endsWith('\\')) return false;
  return true;
}

function sameBlock(text: string, lines: Line[], first: number, last: number, lang: 'c' | 'py'): boolean {
  if (first === last) return true;
  if (lang === 'c') {
    let depth = 0;
    const a = lines[first].start;
    const b = lines[last].start;
    const base = depths(text, a, lang).brace;
    for (let k = first; k < last; k++) {
      depth = depths(text, lines[k + 1].start, lang).brace - base;
      if (depth < 0) return false;
    }
    return depths(text, b, lang).brace === base;
  }
  const indentOf = (s: string) => /^[ \t]*/.exec(s)![0].length;
  const base = indentOf(lines[first].text);
  for (let k = first + 1; k <= last; k++) {
    if (lines[k].text.trim() === '') continue;
    if (indentOf(lines[k].text) < base) return false;
  }
  return indentOf(lines[last].text) === base;
}
