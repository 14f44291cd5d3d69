// Random edits of .layout texts for the incremental property tests (incremental.test.ts,
// snapshot-history.test.ts).
import fc from 'fast-check';

/**
 * An edit: replace `del` characters at a fraction of the text by `ins`; or change one integer
 * literal (values flow through params and lets into layouts: the dependency tracking is
 * exercised); or add a line break at a line start (what follows moves to other lines); or swap two
 * lines (a declaration moves before or after its uses, the first of two declarations of a name
 * changes). Pieces also insert whole declarations: a second declaration of a name, an `assume`, a
 * `linear`, a global `i`, a param only a kernel's template asks about. Or insert copies of a whole
 * line at a line start (the first line too): everything after moves (kept chunks move in place),
 * chunks of equal texts follow each other, and enough broken declarations make the parser cap its
 * messages (the chunked parse gives way to the whole-file parse, then comes back).
 */
export type Edit = { kind: 'splice'; at: number; del: number; ins: string } | { kind: 'number'; which: number; value: number } | { kind: 'line'; at: number }
  | { kind: 'swap'; a: number; b: number } | { kind: 'copies'; at: number; line: string; n: number };
export function apply(text: string, e: Edit): string {
  switch (e.kind) {
    case 'splice': {
      const at = Math.floor(e.at * (text.length + 1));
      return text.slice(0, at) + e.ins + text.slice(at + e.del);
    }
    case 'number': {
      const ints = [...text.matchAll(/\b[0-9]+\b/g)];
      if (ints.length === 0) return text;
      const m = ints[e.which % ints.length];
      return text.slice(0, m.index) + String(e.value) + text.slice(m.index! + m[0].length);
    }
    case 'swap': {
      const lines = text.split('\n');
      const a = Math.floor(e.a * lines.length) % lines.length, b = Math.floor(e.b * lines.length) % lines.length;
      [lines[a], lines[b]] = [lines[b], lines[a]];
      return lines.join('\n');
    }
    case 'copies': {
      const starts = [0, ...[...text.matchAll(/\n/g)].map((m) => m.index! + 1)];
      const at = starts[Math.floor(e.at * starts.length) % starts.length];
      return text.slice(0, at) + e.line.repeat(e.n) + text.slice(at);
    }
    case 'line': {
      const starts = [0, ...[...text.matchAll(/\n/g)].map((m) => m.index! + 1)];
      const at = starts[Math.floor(e.at * starts.length) % starts.length];
      return text.slice(0, at) + '\n' + text.slice(at);
    }
  }
}
const pieces = ['\n', ' ', '(', ')', '[', ']', '{', '}', ',', '=', '/', '#', '"', '$', '.inv(x)', 'param ', 'layout ', 'let ', 'perm ',
  'kernel k target triton builtin matmul {\n', 'const ', '\nparam M = 100 in [64, 96]\n', ' M ', ' BM ', '4095', '96', 'x', 'GenP([3, 3], antidiag(3))',
  '.TileBy([2, 2], [2, 2])', 'OrderBy(Row(6, 6))', '\r\n', 'layout Z = A\n', 'let M = 3\n', '\nlayout U = OrderBy(Row(4, 4)\n',
  '\nassume M % 32 == 0\n', '\nlinear LB = blocked(shape=[16, 64], sizePerThread=[1, 8], threadsPerWarp=[4, 8], warpsPerCTA=[1, 1], order=[1, 0])\n',
  '\nparam i = 2\n', '\nparam n_cols = 64\n', '\nparam K = 64, BN = 64\n', '\nconst M = 8\n'];
export const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({
    kind: fc.constant('splice' as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    del: fc.oneof(fc.constant(0), fc.nat(20)),
    ins: fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 4 }), fc.constant('')),
  }),
  fc.record({ kind: fc.constant('number' as const), which: fc.nat(), value: fc.constantFrom(0, 1, 2, 3, 4, 6, 7, 12, 64, 96, 100, 128, 4095) }),
  fc.record({ kind: fc.constant('line' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({ kind: fc.constant('swap' as const), a: fc.double({ min: 0, max: 1, noNaN: true }), b: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({
    kind: fc.constant('copies' as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    line: fc.constantFrom('#\n', '\n', 'param i = 1\n', 'layout Q = OrderBy(Row(4, 4))\n', 'let x = (\n', 'let x = (\n'.repeat(60)),
    n: fc.integer({ min: 1, max: 3 }),
  }),
);

