// A unified diff of two texts (`layout fmt --diff`): Myers' O(ND) shortest edit script over lines, then
// hunks with 3 lines of context, in the format `diff -u` and `git apply` read.

/** Lines of `text`, each with its own line break (the last may have none). */
export function splitLines(text: string): string[] {
  const out: string[] = [];
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      out.push(text.slice(at, i + 1));
      at = i + 1;
    }
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

type Op = { kind: ' ' | '-' | '+'; line: string };

/** The shortest edit script from `a` to `b`, as a sequence of kept, removed and added lines. */
export function diffLines(a: readonly string[], b: readonly string[]): Op[] {
  // common prefix and suffix first: the formatter usually changes few lines
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const A = a.slice(pre, a.length - suf);
  const B = b.slice(pre, b.length - suf);
  const n = A.length;
  const m = B.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let done = n === 0 && m === 0;
  for (let d = 0; d <= max && !done; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && A[x] === B[y]) { x++; y++; }
      v[offset + k] = x;
      if (x >= n && y >= m) { done = true; break; }
    }
  }
  // walk back through the trace
  const middle: Op[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const vd = trace[d]; // the furthest points after d - 1 edits
    const k = x - y;
    if (d === 0) {
      while (x > 0 && y > 0) { middle.push({ kind: ' ', line: A[x - 1] }); x--; y--; }
      break;
    }
    const down = k === -d || (k !== d && vd[offset + k - 1] < vd[offset + k + 1]);
    const px = vd[offset + (down ? k + 1 : k - 1)];
    const midX = down ? px : px + 1; // after the edit, before the snake
    while (x > midX) { middle.push({ kind: ' ', line: A[x - 1] }); x--; y--; }
    if (down) { middle.push({ kind: '+', line: B[y - 1] }); y--; }
    else { middle.push({ kind: '-', line: A[x - 1] }); x--; }
  }
  middle.reverse();
  return [
    ...a.slice(0, pre).map((line) => ({ kind: ' ' as const, line })),
    ...middle,
    ...a.slice(a.length - suf).map((line) => ({ kind: ' ' as const, line })),
  ];
}

/** A unified diff (`--- name`, `+++ name`, `@@` hunks), or '' when the texts are equal. */
export function unifiedDiff(oldText: string, newText: string, oldName: string, newName: string, context = 3): string {
  if (oldText === newText) return '';
  const ops = diffLines(splitLines(oldText), splitLines(newText));
  const out: string[] = [`--- ${oldName}\n`, `+++ ${newName}\n`];
  const changed = ops.map((o) => o.kind !== ' ');
  let i = 0;
  while (i < ops.length) {
    if (!changed[i]) { i++; continue; }
    // a hunk: from `context` lines before this change to `context` after the last change that is
    // within 2*context lines of the previous one
    const start = Math.max(0, i - context);
    let end = i;
    let j = i;
    while (j < ops.length) {
      if (changed[j]) { end = j; j++; continue; }
      if (j - end > 2 * context) break;
      j++;
    }
    const stop = Math.min(ops.length, end + context + 1);
    let oldStart = 1;
    let newStart = 1;
    for (let t = 0; t < start; t++) {
      if (ops[t].kind !== '+') oldStart++;
      if (ops[t].kind !== '-') newStart++;
    }
    const body = ops.slice(start, stop);
    const oldLen = body.filter((o) => o.kind !== '+').length;
    const newLen = body.filter((o) => o.kind !== '-').length;
    out.push(`@@ -${range(oldStart, oldLen)} +${range(newStart, newLen)} @@\n`);
    for (const o of body) {
      out.push(o.kind + o.line);
      if (!o.line.endsWith('\n')) out.push('\n\\ No newline at end of file\n');
    }
    i = stop;
  }
  return out.join('');
}

function range(start: number, len: number): string {
  // an empty range names the line before it (diff -u's convention)
  if (len === 0) return `${start - 1},0`;
  return len === 1 ? `${start}` : `${start},${len}`;
}
