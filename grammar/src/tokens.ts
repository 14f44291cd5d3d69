// Token types of the `.layout` language (Chevrotain). Order in `allTokens` matters: the lexer
// tries the patterns in this order, so longer operators come before their prefixes and keywords
// come before `Ident` (each keyword has `longer_alt: Ident`, so `layouts` is one identifier).
import { createToken, Lexer, type TokenType } from 'chevrotain';

// ------------------------------------------------------------------ categories
// Abstract token types (no pattern): one `CONSUME(BinaryOp)` matches every binary operator.

/** every binary operator: arithmetic, comparisons, `and`, `or` */
export const BinaryOp = createToken({ name: 'BinaryOp', pattern: Lexer.NA });
/** `-`, `+`, `not` in prefix position */
export const PrefixOp = createToken({ name: 'PrefixOp', pattern: Lexer.NA });
/** every reserved word */
export const Keyword = createToken({ name: 'Keyword', pattern: Lexer.NA });
/** identifiers and keywords: the segments after the first of a dotted op name (`scf.for`) */
export const AnyName = createToken({ name: 'AnyName', pattern: Lexer.NA });
/** both string tokens (an unterminated string is reported by the lexer and parsed as a string) */
export const StringLike = createToken({ name: 'StringLike', pattern: Lexer.NA });

// ------------------------------------------------------------------ trivia
export const WhiteSpace = createToken({ name: 'WhiteSpace', pattern: /\s+/, group: Lexer.SKIPPED });
export const Comment = createToken({ name: 'Comment', pattern: /#[^\n\r]*/, group: 'comments' });

// ------------------------------------------------------------------ literals
export const Ident = createToken({ name: 'Ident', pattern: /[A-Za-z_][A-Za-z0-9_]*/, categories: [AnyName] });
/**
 * Digits followed by any identifier characters, optionally with a fraction: `12abc`, `0x10` and
 * `1.5` are single (malformed) tokens that the lexer pass reports, instead of `12` `abc`.
 */
export const Int = createToken({ name: 'Int', pattern: /[0-9][0-9A-Za-z_]*(?:\.[0-9][0-9A-Za-z_]*)?/ });
export const StringTok = createToken({
  name: 'String',
  pattern: /"(?:[^"\\\n\r]|\\[^\n\r])*"/,
  categories: [StringLike],
});
/**
 * a string that reaches the end of its line, without the white space it ends with (white space
 * between tokens, as after any other); reported as `lex/unterminated-string`
 */
export const UnterminatedString = createToken({
  name: 'UnterminatedString',
  pattern: /"(?:(?:[^"\\\n\r]|\\[^\n\r]?)*(?:[^"\\\s]|\\\S?))?/,
  categories: [StringLike],
});

// ------------------------------------------------------------------ keywords
function keyword(word: string, extra: TokenType[] = []): TokenType {
  return createToken({
    name: word[0].toUpperCase() + word.slice(1),
    pattern: new RegExp(word),
    longer_alt: Ident,
    categories: [Keyword, AnyName, ...extra],
  });
}
export const Param = keyword('param');
export const Const = keyword('const');
export const Let = keyword('let');
export const LayoutKw = keyword('layout');
export const Perm = keyword('perm');
/** `linear T = blocked(shape=[16, 64], ...)`: a Triton linear layout (docs/linear-layouts.md) */
export const Linear = keyword('linear');
export const Inverse = keyword('inverse');
export const Kernel = keyword('kernel');
export const Target = keyword('target');
export const Template = keyword('template');
export const Builtin = keyword('builtin');
export const Schedule = keyword('schedule');
export const For = keyword('for');
export const On = keyword('on');
export const If = keyword('if');
export const Then = keyword('then');
export const Else = keyword('else');
export const And = keyword('and', [BinaryOp]);
export const Or = keyword('or', [BinaryOp]);
export const Not = keyword('not', [PrefixOp]);
export const In = keyword('in');
/** `assume tid < T * T, N % 64 == 0`: facts for the simplifier (a declaration) */
export const Assume = keyword('assume');
/** `layout L = ... where tid < T * T`, `kernel k ... where N % 64 == 0 { }`: facts for one layout or kernel */
export const Where = keyword('where');

/** the words that start a declaration; the parser re-synchronises at each of them */
export const declarationKeywords: readonly TokenType[] = [Param, Const, Let, LayoutKw, Perm, Kernel, Schedule, Assume, Linear];

// ------------------------------------------------------------------ operators and punctuation
/** `<<`, `>>`: shifts (before `<=`/`<` and `>=`/`>`) */
export const Shl = createToken({ name: 'Shl', pattern: /<</, categories: [BinaryOp] });
export const Shr = createToken({ name: 'Shr', pattern: />>/, categories: [BinaryOp] });
/** `^`, `&`, `|`: bitwise xor, and, or (C precedence: & above ^ above |, all below ==) */
export const Caret = createToken({ name: 'Caret', pattern: /\^/, categories: [BinaryOp] });
export const Amp = createToken({ name: 'Amp', pattern: /&/, categories: [BinaryOp] });
export const Pipe = createToken({ name: 'Pipe', pattern: /\|/, categories: [BinaryOp] });
export const Le = createToken({ name: 'Le', pattern: /<=/, categories: [BinaryOp] });
export const Ge = createToken({ name: 'Ge', pattern: />=/, categories: [BinaryOp] });
export const EqEq = createToken({ name: 'EqEq', pattern: /==/, categories: [BinaryOp] });
export const NotEq = createToken({ name: 'NotEq', pattern: /!=/, categories: [BinaryOp] });
export const Lt = createToken({ name: 'Lt', pattern: /</, categories: [BinaryOp] });
export const Gt = createToken({ name: 'Gt', pattern: />/, categories: [BinaryOp] });
export const Eq = createToken({ name: 'Eq', pattern: /=/ });
export const Plus = createToken({ name: 'Plus', pattern: /\+/, categories: [BinaryOp, PrefixOp] });
export const Minus = createToken({ name: 'Minus', pattern: /-/, categories: [BinaryOp, PrefixOp] });
export const Star = createToken({ name: 'Star', pattern: /\*/, categories: [BinaryOp] });
/** `//`, Python's floor division, accepted as a spelling of `/` so that pasted LEGO code parses */
export const SlashSlash = createToken({ name: 'SlashSlash', pattern: /\/\//, categories: [BinaryOp] });
export const Slash = createToken({ name: 'Slash', pattern: /\//, categories: [BinaryOp] });
export const Percent = createToken({ name: 'Percent', pattern: /%/, categories: [BinaryOp] });
export const LParen = createToken({ name: 'LParen', pattern: /\(/ });
export const RParen = createToken({ name: 'RParen', pattern: /\)/ });
export const LBracket = createToken({ name: 'LBracket', pattern: /\[/ });
export const RBracket = createToken({ name: 'RBracket', pattern: /\]/ });
export const LCurly = createToken({ name: 'LCurly', pattern: /\{/ });
export const RCurly = createToken({ name: 'RCurly', pattern: /\}/ });
export const Comma = createToken({ name: 'Comma', pattern: /,/ });
export const Colon = createToken({ name: 'Colon', pattern: /:/ });
export const Dot = createToken({ name: 'Dot', pattern: /\./ });

export const keywordTokens: readonly TokenType[] = [
  Param, Const, Let, LayoutKw, Perm, Inverse, Kernel, Target, Template, Builtin, Schedule,
  For, On, If, Then, Else, And, Or, Not, In,
  Assume, Where, Linear,
];

/** every reserved word of the language, in the order of the reference */
export const KEYWORDS: readonly string[] = keywordTokens.map((t) => (t.PATTERN as RegExp).source);

export const allTokens: TokenType[] = [
  WhiteSpace, Comment,
  StringTok, UnterminatedString,
  ...keywordTokens,
  Ident, Int,
  Shl, Shr, Caret, Amp, Pipe,
  Le, Ge, EqEq, NotEq, Lt, Gt, Eq,
  Plus, Minus, Star, SlashSlash, Slash, Percent,
  LParen, RParen, LBracket, RBracket, LCurly, RCurly, Comma, Colon, Dot,
  BinaryOp, PrefixOp, Keyword, AnyName, StringLike,
];

/** How a token reads in a message: `'='`, `'let'`, `a name`... (keyed by token type name). */
export const tokenLabels: Record<string, string> = {
  Ident: 'a name', Int: 'an integer', String: 'a string', UnterminatedString: 'a string',
  StringLike: 'a string', AnyName: 'a name', BinaryOp: 'an operator', PrefixOp: 'an operator',
  Shl: "'<<'", Shr: "'>>'", Caret: "'^'", Amp: "'&'", Pipe: "'|'",
  Le: "'<='", Ge: "'>='", EqEq: "'=='", NotEq: "'!='", Lt: "'<'", Gt: "'>'", Eq: "'='",
  Plus: "'+'", Minus: "'-'", Star: "'*'", SlashSlash: "'//'", Slash: "'/'", Percent: "'%'",
  LParen: "'('", RParen: "')'", LBracket: "'['", RBracket: "']'", LCurly: "'{'", RCurly: "'}'",
  Comma: "','", Colon: "':'", Dot: "'.'", EOF: 'the end of the file',
};
for (const k of keywordTokens) tokenLabels[k.name] = `'${(k.PATTERN as RegExp).source}'`;
