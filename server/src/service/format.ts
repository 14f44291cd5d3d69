// Formatting: one canonical style, computed from the tokens alone. Only the whitespace between
// tokens ever changes (never a token, never a comment), so no text can be lost; a file with
// syntax errors is left alone (no edits). Line breaks are kept as written, except that runs of
// blank lines shrink to one, blank lines after `{` / before `}` and at the start go, and the file
// ends with exactly one line break. Applying the result again gives no edits (idempotent).
//
// Within a line: one space around binary operators, `=` and after `,`; none inside brackets,
// before `,`, around `.` and slice colons, after a prefix `-`/`+`, or between a name and its `(`
// or `[`; two spaces before a trailing comment. Indentation: declarations at column 0, statements
// in kernel and schedule blocks at 2; inside brackets 2 deeper per open bracket (a line that
// starts with a closing bracket: one level less); other continuation lines 2 deeper than their
// statement; a comment line takes the indentation of the code that follows it.
import type { TokenInfo } from '../../../grammar/src/token-info.js';
import type { LayoutDocument } from './document.js';

export interface TextEditData {
  range: { start: number; end: number };
  newText: string;
}

export interface FormatOptions {
  /** spaces per indentation level (the editor's tab size); 2 by default */
  indent?: number;
}

export type FormatResult = { edits: TextEditData[] } | { refused: string };

const declKeywords = new Set(['param', 'const', 'let', 'layout', 'perm', 'kernel', 'schedule']);
/** tokens after which an expression continues on the next line */
const continuesAfter = new Set(['+', '-', '*', '/', '//', '%', '<', '<=', '>', '>=', '==', '!=', '=', ',', '.', ':', 'and', 'or', 'not', 'if', 'then', 'else', 'in', '(', '[']);
/** tokens that continue the previous line when they start one */
const continuesBefore = new Set(['+', '-', '*', '/', '//', '%', '<', '<=', '>', '>=', '==', '!=', '=', ',', '.', ':', 'and', 'or', 'then', 'else', 'in', ')', ']']);
const prefixContext = new Set(['+', '-', '*', '/', '//', '%', '<', '<=', '>', '>=', '==', '!=', '=', ',', ':', '(', '[', '{', 'and', 'or', 'not', 'if', 'then', 'else', 'in']);

export function format(doc: LayoutDocument, options: FormatOptions = {}): FormatResult {
  if (doc.hasParseErrors) return { refused: 'the file has syntax errors; fix them first (nothing was changed)' };
  const edits: TextEditData[] = [];
  const text = doc.text;
  const tokens = doc.tokens;
  const unit = Math.max(1, Math.min(8, options.indent ?? 2));
  const eol = text.includes('\r\n') ? '\r\n' : text.includes('\r') && !text.includes('\n') ? '\r' : '\n';
  const push = (start: number, end: number, canonical: string) => {
    if (text.slice(start, end) !== canonical) edits.push({ range: { start, end }, newText: canonical });
  };
  if (tokens.length === 0) {
    // only whitespace: an empty file
    push(0, text.length, '');
    return { edits };
  }

  // per token: is it a prefix sign, is it a name (a keyword after `.` is a name segment: `scf.for`)
  const prefix: boolean[] = [];
  const name: boolean[] = [];
  let before: TokenInfo | undefined;
  for (const t of tokens) {
    if (t.category === 'comment') { prefix.push(false); name.push(false); continue; }
    prefix.push((t.text === '-' || t.text === '+') && (!before || prefixContext.has(before.text)));
    name.push(isName(t) || (t.category === 'keyword' && before?.text === '.'));
    before = t;
  }

  // bracket/block state before each token
  const stack: string[] = [];
  let blockDepth = 0;
  let prevCode: TokenInfo | undefined; // last non-comment token
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    const prev = tokens[i - 1];
    const gapStart = prev ? prev.range.end : 0;
    const gap = text.slice(gapStart, t.range.start);
    const newlines = countLineBreaks(gap);
    if (!prev) {
      push(0, t.range.start, ''); // nothing before the first token
    } else if (newlines === 0) {
      // a colon outside brackets is the element types of a schedule header: `(M, N, K) : f16 x f16 -> f32`
      const topLevel = stack.length === 0 || stack[stack.length - 1] === '{';
      push(gapStart, t.range.start, ' '.repeat(spaceBetween(prev, t, prefix[i - 1], name[i - 1], topLevel)));
    } else {
      let lines = Math.min(newlines, 2);
      if (prev.text === '{' || t.text === '}') lines = 1;
      const indent = t.category === 'comment'
        ? commentIndent(tokens, i, stack, blockDepth, prevCode, unit)
        : lineIndent(t, stack, blockDepth, prevCode, unit);
      push(gapStart, t.range.start, eol.repeat(lines) + ' '.repeat(indent));
    }
    // update the nesting after the token
    if (t.category !== 'comment') {
      if (t.text === '{') { stack.push('{'); blockDepth++; }
      else if (t.text === '(' || t.text === '[') stack.push(t.text);
      else if (t.text === ')' || t.text === ']' || t.text === '}') {
        const open = stack.pop();
        if (open === '{') blockDepth--;
      }
      prevCode = t;
    }
  }
  const last = tokens[tokens.length - 1];
  push(last.range.end, text.length, eol);
  return { edits };
}

/** Applies non-overlapping edits to `text`. */
export function applyEdits(text: string, edits: TextEditData[]): string {
  const sorted = [...edits].sort((a, b) => a.range.start - b.range.start);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    out += text.slice(at, e.range.start) + e.newText;
    at = e.range.end;
  }
  return out + text.slice(at);
}

function countLineBreaks(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 10) n++;
    else if (c === 13) {
      n++;
      if (s.charCodeAt(i + 1) === 10) i++;
    }
  }
  return n;
}

function isName(t: TokenInfo): boolean {
  return t.category === 'identifier' || t.category === 'constructor' || t.category === 'function';
}

/** Spaces between two tokens on one line. */
function spaceBetween(a: TokenInfo, b: TokenInfo, aIsPrefix: boolean, aIsName: boolean, topLevel = false): number {
  if (b.category === 'comment') return 2;
  if (topLevel && (a.text === ':' || b.text === ':')) return 1;
  if (a.text === '-' && b.text === '>') return 0; // `->` of a schedule header's element types
  if (a.text === '(' || a.text === '[') return 0;
  if (b.text === ')' || b.text === ']' || b.text === ',') return 0;
  if (a.text === ',') return 1;
  if (a.text === '.' || b.text === '.') return 0;
  if (a.text === ':' || b.text === ':') return 0;
  if (aIsPrefix) return 0; // `-x`, `(-1)`, `= -1`
  if (b.text === '(' || b.text === '[') {
    if (aIsName || a.text === ')' || a.text === ']' || a.text === 'inverse') return 0;
    return 1;
  }
  return 1;
}

function lineIndent(t: TokenInfo, stack: string[], blockDepth: number, prevCode: TokenInfo | undefined, unit: number): number {
  if (t.text === '}') return unit * Math.max(0, blockDepth - 1);
  if (blockDepth === 0 && declKeywords.has(t.text)) return 0;
  const base = unit * blockDepth;
  // brackets opened inside the current statement (after the innermost block)
  const brackets = stack.length - stack.lastIndexOf('{') - 1;
  const levels = t.text === ')' || t.text === ']' ? brackets - 1 : brackets;
  if (levels > 0) return base + unit * levels;
  if (brackets > 0) return base; // the closing bracket of the outermost level
  const continuation = blockDepth === 0 || (prevCode !== undefined && prevCode.text !== '{' && continuesAfter.has(prevCode.text)) || continuesBefore.has(t.text);
  return continuation ? base + unit : base;
}

function commentIndent(tokens: TokenInfo[], i: number, stack: string[], blockDepth: number, prevCode: TokenInfo | undefined, unit: number): number {
  let j = i + 1;
  while (j < tokens.length && tokens[j].category === 'comment') j++;
  const next = tokens[j];
  if (!next) return blockDepth > 0 ? unit * blockDepth : 0;
  if (next.text === '}') return unit * blockDepth;
  return lineIndent(next, stack, blockDepth, prevCode, unit);
}
