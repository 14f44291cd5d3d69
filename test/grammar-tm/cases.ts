// What the TextMate grammar (syntaxes/layout.tmLanguage.json) must give each token. generate.ts turns these
// into vscode-tmgrammar-test files with computed caret columns (hand-counted columns go wrong).
//
// Each line lists [token text, expected scope(s), occurrence (1-based, default 1)]. A scope starting with
// '- ' asserts that the scope is absent.

export type Expect = [text: string, scopes: string, occurrence?: number];
export interface Line {
  src: string;
  expect: Expect[];
}
export interface Case {
  /** file name under test/grammar-tm/generated/ (without .layout) */
  name: string;
  description: string;
  lines: Line[];
}

export const cases: Case[] = [
  {
    name: 'declarations',
    description: 'parameters, lets, layouts, perms, comments',
    lines: [
      {
        src: '# Grouped-order matmul',
        expect: [['#', 'comment.line.number-sign.layout punctuation.definition.comment.layout'], ['Grouped-order matmul', 'comment.line.number-sign.layout']],
      },
      {
        src: 'param M = 4_096, N = 4096, K = 0x1F',
        expect: [
          ['param', 'keyword.declaration.param.layout'],
          ['M', 'variable.other.constant.declaration.layout'],
          ['=', 'keyword.operator.assignment.layout'],
          ['4_096', 'constant.numeric.integer.decimal.layout'],
          [',', 'punctuation.separator.comma.layout'],
          ['N', 'variable.other.constant.declaration.layout'],
          ['K', 'variable.other.constant.declaration.layout'],
          ['0x1F', 'invalid.illegal.numeric.layout'],
        ],
      },
      {
        src: 'param BM = 128 in [64, 128, 256], BK = 64  # tile sizes',
        expect: [
          ['BM', 'variable.other.constant.declaration.layout'],
          ['in', 'keyword.other.in.layout'],
          ['[', 'punctuation.section.brackets.layout'],
          ['256', 'constant.numeric.integer.decimal.layout'],
          ['BK', 'variable.other.constant.declaration.layout'],
          ['# tile sizes', 'comment.line.number-sign.layout'],
        ],
      },
      {
        src: 'const T = 32',
        expect: [['const', 'keyword.declaration.const.layout'], ['T', 'variable.other.constant.declaration.layout'], ['32', 'constant.numeric.integer.decimal.layout']],
      },
      {
        src: 'let num_pid_m = M / BM          # must divide',
        expect: [
          ['let', 'keyword.declaration.let.layout'],
          ['num_pid_m', 'variable.other.declaration.layout'],
          ['M', 'variable.other.layout'],
          ['/', 'keyword.operator.arithmetic.layout'],
          ['BM', 'variable.other.layout'],
          ['# must divide', 'comment.line.number-sign.layout'],
        ],
      },
      {
        src: 'layout A = OrderBy(Row(M, K)).TileBy([M/BM, K/BK], [BM, BK])',
        expect: [
          ['layout', 'keyword.declaration.layout.layout'],
          ['A', 'entity.name.type.layout.layout'],
          ['OrderBy', 'support.class.constructor.layout'],
          ['(', 'punctuation.section.parens.layout'],
          ['Row', 'support.class.constructor.layout'],
          ['.', 'punctuation.accessor.layout'],
          ['TileBy', 'support.class.constructor.layout'],
          ['BK', 'variable.other.layout', 2],
          [']', 'punctuation.section.brackets.layout', 2],
        ],
      },
      {
        src: 'layout Pid = OrderBy(Col(max(num_pid_m / GM, 1), 1), Col(min(num_pid_m, GM), num_pid_n))',
        expect: [
          ['Pid', 'entity.name.type.layout.layout'],
          ['Col', 'support.class.constructor.layout'],
          ['max', 'support.function.builtin.layout'],
          ['min', 'support.function.builtin.layout'],
          ['num_pid_n', 'variable.other.layout'],
        ],
      },
      {
        src: 'layout S = OrderBy(RegP([2, 2], [1, 0]), GenP([3, 3], antidiag(3))).GroupBy([6, 6]).ExpandBy([8]).TileOrderBy([1, 0])',
        expect: [
          ['RegP', 'support.class.constructor.layout'],
          ['GenP', 'support.class.constructor.layout'],
          ['antidiag', 'variable.other.layout'],
          ['GroupBy', 'support.class.constructor.layout'],
          ['ExpandBy', 'support.class.constructor.layout'],
          ['TileOrderBy', 'support.class.constructor.layout'],
        ],
      },
      {
        src: 'perm antidiag(n)[i, j] =',
        expect: [['perm', 'keyword.declaration.perm.layout'], ['antidiag', 'entity.name.function.perm.layout'], ['n', 'variable.other.layout'], ['j', 'variable.other.layout']],
      },
      {
        src: '  if i + j < n then (i + j) * (i + j + 1) / 2 + i',
        expect: [
          ['if', 'keyword.control.conditional.layout'],
          ['<', 'keyword.operator.comparison.layout'],
          ['then', 'keyword.control.conditional.layout'],
          ['*', 'keyword.operator.arithmetic.layout'],
        ],
      },
      {
        src: '  else n*n - (2*n - i - j - 1) % 7 inverse(x) = [x / n, x % n]',
        expect: [
          ['else', 'keyword.control.conditional.layout'],
          ['%', 'keyword.operator.arithmetic.layout'],
          ['inverse', 'keyword.other.inverse.layout'],
          ['x', 'variable.other.layout'],
        ],
      },
      {
        src: 'let q = n // 2 + 1.5 + 1__0',
        expect: [
          ['//', 'keyword.operator.arithmetic.layout'],
          ['1.5', 'invalid.illegal.numeric.layout'],
          ['1__0', 'invalid.illegal.numeric.layout'],
        ],
      },
      {
        src: 'let ok = a <= b and not c == d or e != f',
        expect: [
          ['<=', 'keyword.operator.comparison.layout'],
          ['and', 'keyword.operator.logical.layout'],
          ['not', 'keyword.operator.logical.layout'],
          ['==', 'keyword.operator.comparison.layout'],
          ['or', 'keyword.operator.logical.layout'],
          ['!=', 'keyword.operator.comparison.layout'],
        ],
      },
      {
        src: 'let layoutish = Rows + Colour + tile + 100x10',
        expect: [
          ['layoutish', 'variable.other.declaration.layout'],
          ['Rows', 'variable.other.layout - support.class.constructor.layout'],
          ['Colour', 'variable.other.layout - support.class.constructor.layout'],
          ['tile', 'variable.other.layout - support.function.primitive.layout'],
          ['100x10', 'invalid.illegal.numeric.layout - constant.numeric.integer.decimal.layout'],
        ],
      },
    ],
  },
  {
    name: 'blocks',
    description: 'kernels, queries, strings and schedules',
    lines: [
      {
        src: 'kernel matmul target triton template "templates/matmul.py" {',
        expect: [
          ['kernel', 'keyword.declaration.kernel.layout'],
          ['matmul', 'entity.name.function.kernel.layout'],
          ['target', 'keyword.other.target.layout'],
          ['triton', 'constant.language.target.layout'],
          ['template', 'keyword.other.template.layout'],
          ['"', 'string.quoted.double.layout punctuation.definition.string.begin.layout'],
          ['templates/matmul.py', 'string.quoted.double.layout'],
          ['{', 'punctuation.section.braces.layout'],
        ],
      },
      {
        src: '  pid_m, pid_n = Pid.inv(pid)',
        expect: [['pid_m', 'variable.other.layout'], ['inv', 'support.function.method.layout'], ['pid', 'variable.other.layout']],
      },
      {
        src: '  offset_aptrs = A[pid_m, k, :, 0:BK]   # slices',
        expect: [[':', 'punctuation.separator.slice.layout'], [':', 'punctuation.separator.slice.layout', 2], ['0', 'constant.numeric.integer.decimal.layout']],
      },
      {
        src: '  x = A.apply(i, j) + "a\\"b"',
        expect: [['apply', 'support.function.method.layout'], ['\\"', 'string.quoted.double.layout constant.character.escape.layout']],
      },
      { src: '}', expect: [['}', 'punctuation.section.braces.layout']] },
      {
        src: 'kernel k2 target cuda builtin gemm_tile { }',
        expect: [['cuda', 'constant.language.target.layout'], ['builtin', 'keyword.other.builtin.layout']],
      },
      {
        src: 'schedule gemm for linalg.matmul(M, N, K) on sm_90 {',
        expect: [
          ['schedule', 'keyword.declaration.schedule.layout'],
          ['gemm', 'entity.name.function.schedule.layout'],
          ['for', 'keyword.other.for.layout'],
          ['linalg.matmul', 'support.type.payload-op.layout'],
          ['on', 'keyword.other.on.layout'],
          ['sm_90', 'constant.language.gpu.layout'],
        ],
      },
      {
        src: 'schedule tc for linalg.matmul(M, N, K) : f16 x f16 -> f32 on sm_90 {',
        expect: [
          ['f16', 'storage.type.element.layout', 1],
          ['f16', 'storage.type.element.layout', 2],
          ['->', 'keyword.operator.arrow.layout'],
          ['f32', 'storage.type.element.layout'],
          ['sm_90', 'constant.language.gpu.layout'],
        ],
      },
      {
        src: '  parallelizeForWarps(mm, [2, 2]); mma(mm, [16, 8, 16]); asyncCopy(); swizzleShared(); pipeline(mm, 3); multibuffer(3)',
        expect: [
          ['parallelizeForWarps', 'support.function.primitive.layout'],
          ['mma', 'support.function.primitive.layout'],
          ['asyncCopy', 'support.function.primitive.layout'],
          ['swizzleShared', 'support.function.primitive.layout'],
          ['pipeline', 'support.function.primitive.layout'],
          ['multibuffer', 'support.function.primitive.layout'],
        ],
      },
      {
        src: '  mm = findOp("linalg.matmul")',
        expect: [['findOp', 'support.function.primitive.layout'], ['linalg.matmul', 'string.quoted.double.layout']],
      },
      {
        src: '  tileForGrids(mm, [BM, BN]); tile(mm, [0, 0, BK]); fuse(mm)',
        expect: [['tileForGrids', 'support.function.primitive.layout'], ['tile', 'support.function.primitive.layout'], ['fuse', 'support.function.primitive.layout']],
      },
      {
        src: '  promote(mm, [0, 1]); parallelizeForThreads(mm, [16, 16]); parallelizeForBlocks(mm)',
        expect: [
          ['promote', 'support.function.primitive.layout'],
          ['parallelizeForThreads', 'support.function.primitive.layout'],
          ['parallelizeForBlocks', 'support.function.primitive.layout'],
        ],
      },
      {
        src: '  unroll(mm, 2); vectorize(); bufferize()',
        expect: [['unroll', 'support.function.primitive.layout'], ['vectorize', 'support.function.primitive.layout'], ['bufferize', 'support.function.primitive.layout']],
      },
    ],
  },
];
