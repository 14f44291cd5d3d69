// The template engine: only plain `{{ name }}` placeholders, verbatim values, never a crash.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { scanTemplate, renderTemplate, lineOf } from '../../server/src/codegen/template.js';

test('placeholders are found with their names, offsets and lines', () => {
  const t = scanTemplate('a = {{ x }}\nb = {{y}} + {{  x  }}\n');
  assert.deepEqual(t.problems, []);
  assert.deepEqual(t.placeholders, [
    { name: 'x', offset: 4, end: 11, line: 1 },
    { name: 'y', offset: 16, end: 21, line: 2 },
    { name: 'x', offset: 24, end: 33, line: 2 },
  ]);
});

test('values are inserted verbatim: no HTML escaping, no interpretation', () => {
  const t = scanTemplate('p = {{ e }};\nq = {{ f }}');
  const r = renderTemplate(t, { e: '((a)//(b)) < c && d > "x" & \'y\'', f: '{{ e }} {{#s}}' });
  assert.deepEqual(r, { ok: true, text: 'p = ((a)//(b)) < c && d > "x" & \'y\';\nq = {{ e }} {{#s}}' });
});

test('text around and between tags is kept byte for byte, standalone lines included', () => {
  const src = '  {{ a }}  \n\t{{ b }}\n\n#x{{c}}y\r\n';
  const r = renderTemplate(scanTemplate(src), { a: 'A', b: 'B', c: 'C' });
  assert.deepEqual(r, { ok: true, text: '  A  \n\tB\n\n#xCy\r\n' });
});

test('sections, partials, comments, triple braces, & and delimiter changes are problems with their lines', () => {
  const src = 'ok {{ a }}\n{{#items}}x{{/items}}\n{{^b}}y{{/b}}\n{{> part}}\n{{! note }}\n{{{ raw }}}\n{{& raw2 }}\n{{=<% %>=}}\n';
  const t = scanTemplate(src);
  assert.deepEqual(t.problems.map((p) => [p.line, p.message]), [
    [2, '`{{#items}}` is a section; templates take only plain `{{ name }}` placeholders'],
    [3, '`{{^b}}` is an inverted section; templates take only plain `{{ name }}` placeholders'],
    [4, '`{{> part}}` is a partial; templates take only plain `{{ name }}` placeholders'],
    [5, '`{{! note }}` is a comment; templates take only plain `{{ name }}` placeholders'],
    [6, '`{{{ raw }}}` is a triple-brace variable; templates take only plain `{{ name }}` placeholders'],
    [7, '`{{& raw2 }}` is an unescaped variable; templates take only plain `{{ name }}` placeholders'],
    [8, '`{{=<% %>=}}` is a delimiter change; templates take only plain `{{ name }}` placeholders'],
  ]);
  assert.deepEqual(t.placeholders.map((p) => p.name), ['a']);
  const r = renderTemplate(t, { a: '1', items: 'x', b: '', raw: '', raw2: '' });
  assert.equal(r.ok, false);
});

test('a tag inside a section is reported too', () => {
  const t = scanTemplate('{{#s}}\n{{> p}}\n{{/s}}');
  assert.deepEqual(t.problems.map((p) => p.line), [1, 2]);
});

test('dotted, empty and non-identifier names are problems', () => {
  const t = scanTemplate('{{ a.b }}\n{{ }}\n{{0}}\n{{ . }}\n');
  assert.deepEqual(t.problems.map((p) => [p.line, p.message]), [
    [1, '`{{ a.b }}` is not a plain placeholder: a name is a letter or `_` followed by letters, digits or `_`'],
    [2, '`{{ }}` is an empty placeholder'],
    [3, '`{{0}}` is not a plain placeholder: a name is a letter or `_` followed by letters, digits or `_`'],
    [4, '`{{ . }}` is not a plain placeholder: a name is a letter or `_` followed by letters, digits or `_`'],
  ]);
});

test('an unclosed tag is a problem at its line, not an exception', () => {
  const t = scanTemplate('line one\nline two {{ x \nline three');
  assert.deepEqual(t.problems, [{ message: 'unclosed tag', offset: 'line one\nline two {{ x \nline three'.length, line: 3 }]);
  assert.deepEqual(t.placeholders, []);
});

test('an unopened section end is a problem at its line', () => {
  const t = scanTemplate('a\n{{/x}}');
  assert.deepEqual(t.problems.map((p) => [p.line, p.message]), [[2, 'unopened section "x"']]);
});

test('rendering refuses a placeholder without a value and names it', () => {
  const r = renderTemplate(scanTemplate('{{ a }} {{ b }} {{ b }}'), { a: '1' });
  assert.deepEqual(r, { ok: false, missing: ['b'], problems: [] });
});

test('Object.prototype names are not values: nothing inherited is looked up or called', () => {
  for (const name of ['toString', 'constructor', 'hasOwnProperty', '__proto__', 'valueOf']) {
    const r = renderTemplate(scanTemplate(`x{{ ${name} }}y`), {});
    assert.deepEqual(r, { ok: false, missing: [name], problems: [] }, name);
  }
  const r = renderTemplate(scanTemplate('x{{ constructor }}y'), { constructor: 'C' });
  assert.deepEqual(r, { ok: true, text: 'xCy' });
});

test('lineOf counts newlines before an offset', () => {
  assert.equal(lineOf('a\nb\nc', 0), 1);
  assert.equal(lineOf('a\nb\nc', 2), 2);
  assert.equal(lineOf('a\nb\nc', 4), 3);
  assert.equal(lineOf('a\nb\nc', 99), 3);
});

test('property: scanning never throws, and rendering a problem-free template with every value substitutes exactly', () => {
  const piece = fc.oneof(
    fc.string({ maxLength: 6 }),
    fc.constantFrom('{{', '}}', '{', '}', '{{ a }}', '{{b}}', '{{#a}}', '{{/a}}', '{{>a}}', '{{{a}}}', '\n', '{{=| |=}}'),
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
      const src = parts.join('');
      const t = scanTemplate(src);
      for (const p of t.problems) assert.ok(p.line >= 1 && p.offset >= 0);
      if (t.problems.length === 0) {
        const values: Record<string, string> = {};
        for (const p of t.placeholders) values[p.name] = `<${p.name}>`;
        const r = renderTemplate(t, values);
        assert.ok(r.ok);
        // Re-assembling text and values from the placeholder offsets gives the same string.
        let expect = '';
        let at = 0;
        for (const p of t.placeholders) {
          expect += src.slice(at, p.offset) + `<${p.name}>`;
          at = p.end;
        }
        expect += src.slice(at);
        assert.equal(r.ok && r.text, expect);
      }
    }),
    { numRuns: 300 },
  );
});

test('unclosed and crossed sections are problems at their places; every bad tag is named', () => {
  const t = scanTemplate('{{#a}}\n{{#b}}\n{{/a}}\n{{ x }}');
  assert.deepEqual(t.problems.map((p) => [p.line, p.message]), [
    [1, '`{{#a}}` is a section; templates take only plain `{{ name }}` placeholders'],
    [2, '`{{#b}}` is a section; templates take only plain `{{ name }}` placeholders'],
    [3, 'unclosed section "b"'],
    [4, 'unclosed section "a"'],
  ]);
  assert.deepEqual(t.placeholders.map((p) => p.name), ['x']);
  assert.deepEqual(scanTemplate('a {{{ b }}').problems, [{ message: 'unclosed tag', offset: 10, line: 1 }]);
  assert.deepEqual(scanTemplate('{{ # s }}x{{ / s }}').problems.map((p) => p.message), ['`{{ # s }}` is a section; templates take only plain `{{ name }}` placeholders']);
});

test('a placeholder may span lines, and single braces are text', () => {
  const t = scanTemplate('{ a } {{\n  n\n}} }}');
  assert.deepEqual(t.problems, []);
  assert.deepEqual(t.placeholders, [{ name: 'n', offset: 6, end: 15, line: 1 }]);
  assert.deepEqual(renderTemplate(t, { n: 'N' }), { ok: true, text: '{ a } N }}' });
});

test('a scan is cached by text: scanning the same template again returns the same object', () => {
  const src = 'cached {{ a }} template';
  assert.equal(scanTemplate(src), scanTemplate(src));
  assert.notEqual(scanTemplate(src + ' '), scanTemplate(src));
});
