// The `kernel/...` diagnostics (template placeholders vs bindings) of a document's kernel blocks,
// as the editor shows them. Template files are read from the document's own folder tree only;
// documents that are not files (untitled) can use built-in templates only.
import { readFileSync, realpathSync } from 'node:fs';
import * as nodePath from 'node:path';
import { fileURLToPath } from 'node:url';
import type { File } from '../../../grammar/src/ast.js';
import type { Diagnostic } from '../../../grammar/src/diagnostic.js';
import { kernelDiagnosticsOfFile } from '../codegen/index.js';

/**
 * Reads template files inside `root` only: a path that leaves it, also through a symbolic link, reads
 * as missing (undefined), as does anything that cannot be read.
 */
export function templateReaderWithin(root: string): (absPath: string) => string | undefined {
  return (abs) => {
    try {
      const real = realpathSync(abs);
      const rel = nodePath.relative(realpathSync(root), real);
      if (rel.startsWith('..') || nodePath.isAbsolute(rel)) return undefined;
      return readFileSync(real, 'utf8');
    } catch {
      return undefined;
    }
  };
}

/** `uri` is the document's URI; only `file:` URIs can read template files. */
export function kernelChecks(file: File, text: string, uri: string | undefined): Diagnostic[] {
  if (!file.decls.some((d) => d.kind === 'Kernel')) return [];
  let path = '/untitled.layout';
  let readTemplate: ((abs: string) => string | undefined) | undefined;
  if (uri?.startsWith('file:')) {
    try {
      path = fileURLToPath(uri);
    } catch {
      /* keep the placeholder path */
    }
    readTemplate = templateReaderWithin(nodePath.dirname(path));
  }
  try {
    return kernelDiagnosticsOfFile(file, text, path, { readTemplate, templateRoot: nodePath.dirname(path) });
  } catch (e) {
    const first = file.decls.find((d) => d.kind === 'Kernel')!;
    return [{ code: 'check/internal-error', severity: 'error', message: `internal error while checking kernels: ${(e as Error).message}`, range: first.name.range }];
  }
}
