// The template engine of the code generators: `{{ name }}` placeholders and nothing else.
//
// Templates are tokenised and rendered by mustache (a maintained library), but only after every
// tag has been checked to be a plain variable: sections, inverted sections, partials, comments,
// triple braces, `&` and delimiter changes are reported as problems and such a template is never
// rendered. HTML escaping is off (the values are C and Python expressions). Rendering looks values
// up in a prototype-less object of strings, so nothing in the template or the .layout file is
// ever called or executed.
import Mustache from 'mustache';
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
};

// One writer of our own, with its template cache off: the language server scans every edit of
// every template, and mustache's default cache would keep each version forever.
const writer = new Mustache.Writer();
(writer as unknown as { templateCache: unknown }).templateCache = undefined;

/** 1-based line of a UTF-16 offset in `text`. */
export function lineOf(text: string, offset: number): number {
  let line = 1;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

type Token = [string, string, number, number, ...unknown[]];

/**
 * Scans a template. Never throws: a template mustache cannot parse, or one with anything but
 * plain `{{ name }}` tags, comes back with `problems` (and must not be rendered).
 */
export function scanTemplate(text: string): ScannedTemplate {
  const placeholders: TemplatePlaceholder[] = [];
  const problems: TemplateProblem[] = [];
  let tokens: Token[];
  try {
    tokens = writer.parse(text, ['{{', '}}']) as Token[];
  } catch (e) {
    const raw = e instanceof Error ? e.message : String(e);
    const at = /at (\d+)$/.exec(raw);
    const offset = at ? Number(at[1]) : 0;
    // "Unclosed tag at 17" -> "unclosed tag"; keep mustache's words, drop its offset.
    const message = raw.replace(/ at \d+$/, '').replace(/^./, (c) => c.toLowerCase());
    problems.push({ message, offset, line: lineOf(text, offset) });
    return { text, placeholders, problems };
  }
  const walk = (list: Token[]): void => {
    for (const t of list) {
      const [type, value, start, end] = t;
      if (type === 'text') continue;
      const source = text.slice(start, end);
      if (type === 'name') {
        if (NAME_RE.test(value)) {
          placeholders.push({ name: value, offset: start, end, line: lineOf(text, start) });
        } else {
          problems.push({
            message: value === ''
              ? `\`${source}\` is an empty placeholder`
              : `\`${source}\` is not a plain placeholder: a name is a letter or \`_\` followed by letters, digits or \`_\``,
            offset: start,
            line: lineOf(text, start),
          });
        }
        continue;
      }
      const what = type === '&' && source.startsWith('{{{') ? 'a triple-brace variable' : (TAG_KIND[type] ?? `a \`${type}\` tag`);
      problems.push({
        message: `\`${source}\` is ${what}; templates take only plain \`{{ name }}\` placeholders`,
        offset: start,
        line: lineOf(text, start),
      });
      // A section's children are reported too, so every bad tag is named at once.
      if ((type === '#' || type === '^') && Array.isArray(t[4])) walk(t[4] as Token[]);
    }
  };
  walk(tokens);
  return { text, placeholders, problems };
}

export type RenderResult = { ok: true; text: string } | { ok: false; missing: string[]; problems: TemplateProblem[] };

/**
 * Renders a scanned template with `values` (name -> text, inserted verbatim). Refuses (never
 * throws) when the template has problems or a placeholder has no value.
 */
export function renderTemplate(template: ScannedTemplate, values: Readonly<Record<string, string>>): RenderResult {
  const view: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [k, v] of Object.entries(values)) if (NAME_RE.test(k) && typeof v === 'string') view[k] = v;
  const missing = [...new Set(template.placeholders.map((p) => p.name).filter((n) => !(n in view)))];
  if (template.problems.length > 0 || missing.length > 0) return { ok: false, missing, problems: template.problems };
  const text = writer.render(template.text, view, undefined, { tags: ['{{', '}}'], escape: (v: unknown) => String(v) });
  return { ok: true, text };
}
