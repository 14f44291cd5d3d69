// Small helpers shared by the schedule phases: diagnostics with `schedule/` codes, did-you-mean, formatting.
import type { Range } from '../../../../grammar/src/ast.js';
import type { Diagnostic, RelatedInfo, Severity } from '../../../../grammar/src/diagnostic.js';

export const NO_RANGE: Range = { start: 0, end: 0 };

export function diag(code: string, severity: Severity, message: string, range: Range | undefined, related?: RelatedInfo[]): Diagnostic {
  const d: Diagnostic = { code: `schedule/${code}`, severity, message, range: range ?? NO_RANGE };
  if (related && related.length) d.related = related;
  return d;
}

export function closest(name: string, options: readonly string[]): string | undefined {
  let best: string | undefined, bestD = 3;
  for (const o of options) {
    const d = editDistance(name.toLowerCase(), o.toLowerCase());
    if (d < bestD) { best = o; bestD = d; }
  }
  return best;
}
function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length];
}

export const product = (xs: number[]): number => xs.reduce((a, b) => a * b, 1);
export const times = (xs: number[]): string => xs.join(' x ');
