// The template engine of the code generators: `{{ name }}` placeholders and nothing else.
//
// Our own small filler (no template library): a template is scanned once into text pieces and
// placeholders, every tag checked to be a plain `{{ name }}` variable; sections, inverted sections,
// partials, comments, triple braces, `&` and delimiter changes (mustache syntax a user may paste)
// are reported as problems and such a template is never rendered. Values are inserted verbatim (they
// are C and Python expressions; nothing is escaped). Rendering looks values up in a prototype-less
// object of strings, so nothing in the template or the .layout file is ever called or executed.
// Scans are cached by template text (a small LRU), so a kernel check after an edit re-uses the
// scan of an unchanged template.
import type { TemplateInfo, TemplatePlaceholder, TemplateProblem } from '../check/kernel.js';

export type { TemplateInfo, TemplatePlaceholder, TemplateProblem };

/** A scanned template: the data the kernel checks need, plus what rendering needs. */
export interface ScannedTemplate extends TemplateInfo {
  text: string;
}

/** A placeholder name: an identifier, as `.layout` binding names are. */
const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

const TAG_KIND: Record<string, string> = {
  '#': 'a section',
  '^': 'an inverted section',
  '>': 'a partial',
  '!': 'a comment',
  '&': 'an unescaped variable',
  '=': 'a delimiter change',
  '{': 'a triple-brace variable',
};

/** 1-based line of a UTF-16 offset in `text`. */
export function lineOf(text: string, offset: number): number {
  let line = 1;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function isSpace(c: number): boolean {
  // what a regular expression's \s matches in ASCII, plus the common Unicode spaces
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0xfeff || c === 0x2028 || c === 0x2029 || (c >= 0x2000 && c <= 0x200a) || c === 0x3000 || c === 0x1680 || c === 0x202f || c === 0x205f;
}

const CACHE_SIZE = 64;
const cache = new Map<string, ScannedTemplate>();

/**
 * Scans a template. Never throws: a template with an unclosed tag, or with anything but plain
 * `{{ name }}` tags, comes back with `problems` (and must not be rendered). The result is shared
 * (cached by text): callers must not modify it.
 */
export function scanTemplate(text: string): ScannedTemplate {
  const hit = cache.get(text);
  if (hit) {
    cache.delete(text);
    cache.set(text, hit);
    return hit;
  }
  const scanned = scanUncached(text);
  cache.set(text, scanned);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return scanned;
}

function scanUncached(text: string): ScannedTemplate {
  const placeholders: TemplatePlaceholder[] = [];
  const problems: TemplateProblem[] = [];
  const open: { name: string; offset: number }[] = [];
  // line counting as the scan advances: `line` is the line of offset `lineAt`
  let line = 1;
  let lineAt = 0;
  const lineAtOffset = (o: number): number => {
    for (; lineAt < o; lineAt++) if (text.charCodeAt(lineAt) === 10) line++;
    return line;
  };
  const problem = (message: string, offset: number): void => {
    problems.push({ message, offset, line: lineAtOffset(offset) });
  };
  let at = 0;
  for (;;) {
    const start = text.indexOf('{{', at);
    if (start < 0) break;
    let i = start + 2;
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    const kind = '#^/>{&=!'.includes(text[i] ?? 'x') ? text[i] : 'name';
    if (kind !== 'name') i++;
    const close = kind === '{' ? '}}}' : '}}';
    const closeAt = text.indexOf(close, i);
    if (closeAt < 0) {
      problem('unclosed tag', text.length);
      break;
    }
    const end = closeAt + close.length;
    const value = text.slice(i, closeAt).trim();
    const source = text.slice(start, end);
    at = end;
    if (kind === 'name') {
      if (NAME_RE.test(value)) {
        placeholders.push({ name: value, offset: start, end, line: lineAtOffset(start) });
      } else {
        problem(
          value === ''
            ? `\`${source}\` is an empty placeholder`
            : `\`${source}\` is not a plain placeholder: a name is a letter or \`_\` followed by letters, digits or \`_\``,
          start,
        );
      }
      continue;
    }
    if (kind === '/') {
      // the end of a section already reported at its start; only a stray or crossed end is news
      const top = open.pop();
      if (!top) problem(`unopened section "${value}"`, start);
      else if (top.name !== value) problem(`unclosed section "${top.name}"`, start);
      continue;
    }
    if (kind === '#' || kind === '^') open.push({ name: value, offset: start });
    problem(`\`${source}\` is ${TAG_KIND[kind]}; templates take only plain \`{{ name }}\` placeholders`, start);
  }
  for (const s of open.reverse()) problem(`unclosed section "${s.name}"`, text.length);
  problems.sort((a, b) => a.offset - b.offset);
  return { text, placeholders, problems };
}

export type RenderResult = { ok: true; text: string } | { ok: false; missing: string[]; problems: TemplateProblem[] };

/**
 * Renders a scanned template with `values` (name -> text, inserted verbatim). Refuses (never
 * throws) when the template has problems or a placeholder has no value.
 */
export function renderTemplate(template: ScannedTemplate, values: Readonly<Record<string, string>>): RenderResult {
  const view: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const k of Object.keys(values)) {
    const v = values[k];
    if (NAME_RE.test(k) && typeof v === 'string') view[k] = v;
  }
  const missing = [...new Set(template.placeholders.map((p) => p.name).filter((n) => !(n in view)))];
  if (template.problems.length > 0 || missing.length > 0) return { ok: false, missing, problems: template.problems };
  const out: string[] = [];
  let at = 0;
  for (const p of template.placeholders) {
    out.push(template.text.slice(at, p.offset), view[p.name]);
    at = p.end;
  }
  out.push(template.text.slice(at));
  return { ok: true, text: out.join('') };
}
