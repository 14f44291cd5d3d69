// The formatter, in process (the protocol test in features.test.ts checks the wiring): exact
// canonical output, idempotence, refusal on syntax errors, and properties over re-spaced files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LayoutDocument } from '../../server/src/service/document.js';
import { applyEdits, format } from '../../server/src/service/format.js';
import { matmul } from './fixtures.js';

function fmt(text: string): string {
  const r = format(new LayoutDocument('file:///x.layout', 1, text));
  if ('refused' in r) throw new Error(`refused: ${r.refused}`);
  return applyEdits(text, r.edits);
}

const messy = `# Grouped matmul


param M=4096,N = 4096 ,K= 4096   # sizes
  param BM = 128 in [ 64,128 , 256 ]
let x = -M+ (-1) *2 // 3
layout Pid = OrderBy(Col(max(M / BM, 1), 1), Col(min(M, BM), N))
               .TileBy([M, N])
perm antidiag(n)[i, j] =
      if i + j < n then (i + j) * (i + j + 1) / 2 + i
  # the other half
   else n*n - (2*n - i - j - 1) inverse (x) = [x/n, x%n]
kernel matmul target triton template "t.py" {

   pid_m, pid_n = Pid.inv(pid)   # ids
      # a comment
  offset = A[pid_m,k,:,0:BK]
  b = A[
  pid_m, k,
  :, :
  ]


}
schedule gemm for linalg.matmul(M, N, K) on sm_90 {
  mm = findOp("linalg.matmul")
  tile(mm,[0,0,BK])
}`;

const canonical = `# Grouped matmul

param M = 4096, N = 4096, K = 4096  # sizes
param BM = 128 in [64, 128, 256]
let x = -M + (-1) * 2 // 3
layout Pid = OrderBy(Col(max(M / BM, 1), 1), Col(min(M, BM), N))
  .TileBy([M, N])
perm antidiag(n)[i, j] =
  if i + j < n then (i + j) * (i + j + 1) / 2 + i
  # the other half
  else n * n - (2 * n - i - j - 1) inverse(x) = [x / n, x % n]
kernel matmul target triton template "t.py" {
  pid_m, pid_n = Pid.inv(pid)  # ids
  # a comment
  offset = A[pid_m, k, :, 0:BK]
  b = A[
    pid_m, k,
    :, :
  ]
}
schedule gemm for linalg.matmul(M, N, K) on sm_90 {
  mm = findOp("linalg.matmul")
  tile(mm, [0, 0, BK])
}
`;

test('formats to the canonical style', () => {
  assert.equal(fmt(messy), canonical);
});

test('the canonical text and the fixture are fixed points', () => {
  assert.equal(fmt(canonical), canonical);
  assert.equal(fmt(matmul), matmul);
  const r = format(new LayoutDocument('file:///x.layout', 1, canonical));
  assert.deepEqual(r, { edits: [] });
});

test('edits touch only whitespace between tokens and are minimal', () => {
  const text = 'param M=4096\n';
  const r = format(new LayoutDocument('file:///x.layout', 1, text));
  assert.deepEqual(r, {
    edits: [
      { range: { start: 7, end: 7 }, newText: ' ' },
      { range: { start: 8, end: 8 }, newText: ' ' },
    ],
  });
});

test('keeps CRLF line endings and ends the file with one line break', () => {
  assert.equal(fmt('param M = 1\r\n\r\n\r\nlet x = M  \r\n\r\n'), 'param M = 1\r\n\r\nlet x = M\r\n');
  assert.equal(fmt('param M = 1'), 'param M = 1\n');
  assert.equal(fmt('  \n\n'), '');
  assert.equal(fmt('# only a comment'), '# only a comment\n');
});

test('prefix signs, slices and names before brackets', () => {
  assert.equal(fmt('let a = - 1 + -2 * (- M)'), 'let a = -1 + -2 * (-M)\n');
  assert.equal(fmt('kernel k target triton template "t" {\n x = A [ i , : , 1 : 2 , : N ]\n}'),
    'kernel k target triton template "t" {\n  x = A[i, :, 1:2, :N]\n}\n');
  assert.equal(fmt('let b = max (1, 2) - min(3,4)'), 'let b = max(1, 2) - min(3, 4)\n');
  assert.equal(fmt('let c = if not a and b then 1 else 2'), 'let c = if not a and b then 1 else 2\n');
});

test('refuses a file with syntax errors: no edits at all', () => {
  for (const bad of ['param M = 4096 $', 'layout A = OrderBy(Row(M, K)', 'kernel k target triton template "t" {\n x = \n}', 'let s = "open']) {
    const r = format(new LayoutDocument('file:///x.layout', 1, bad));
    assert.ok('refused' in r, `expected a refusal for ${JSON.stringify(bad)}`);
  }
});

// Property: re-spacing a valid file (any whitespace between tokens, keeping line breaks) formats
// to the same text as the original, keeps every non-space character in order, and is idempotent.
test('property: whitespace noise formats away, text is preserved, idempotent', () => {
  const base = fmt(messy);
  const doc = new LayoutDocument('file:///x.layout', 1, base);
  const tokens = doc.tokens;
  const gaps = tokens.length - 1;
  fc.assert(
    fc.property(fc.array(fc.constantFrom('', ' ', '  ', '\t'), { minLength: gaps, maxLength: gaps }), (noise) => {
      let text = base.slice(0, tokens[0].range.end);
      for (let i = 1; i < tokens.length; i++) {
        const gap = base.slice(tokens[i - 1].range.end, tokens[i].range.start);
        const breaks = gap.includes('\n');
        // inside a line any spacing (but never join two words); line breaks are kept
        const sep = breaks ? gap.replace(/[ ]+/g, ' ') + noise[i - 1] : noise[i - 1] || needsSpace(tokens[i - 1].text, tokens[i].text);
        text += sep + base.slice(tokens[i].range.start, tokens[i].range.end);
      }
      text += '\n';
      const out = fmt(text);
      assert.equal(out, base);
      assert.equal(out.replace(/\s+/g, ''), text.replace(/\s+/g, ''));
      assert.equal(fmt(out), out);
    }),
    { numRuns: 60, seed: 7 },
  );
});

function needsSpace(a: string, b: string): string {
  const word = /[A-Za-z0-9_"]$/;
  return word.test(a) && /^[A-Za-z0-9_"]/.test(b) ? ' ' : (a === '/' && b === '/') || a === '#' || b.startsWith('#') ? ' ' : '';
}

test('element types of a schedule header: spaces around the colon, `->` kept whole; slices keep theirs', () => {
  const src = 'param M = 64\nschedule g for linalg.matmul(M, M, M):f16 x f16 -  >f32 on sm_90 {\n  mm = findOp("linalg.matmul")\n}\n';
  assert.equal(fmt(src), 'param M = 64\nschedule g for linalg.matmul(M, M, M) : f16 x f16 -> f32 on sm_90 {\n  mm = findOp("linalg.matmul")\n}\n');
  assert.equal(fmt('let a = x[1 : 2]\n'), 'let a = x[1:2]\n');
});
