// textDocument/definition: the declaration of a name; on a kernel's template path, the template file.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { DefinitionParams, LocationLink, Location } from 'vscode-languageserver';
import { definition as findDefinition } from '../service/navigation.js';
import type { ServerContext } from './context.js';
import { toRange } from './convert.js';

export function definition(ctx: ServerContext, p: DefinitionParams): Location[] | LocationLink[] | null {
  const s = ctx.snapshot(p.textDocument.uri);
  if (!s) return null;
  const out: Location[] = [];
  for (const t of findDefinition(s.model, s.doc.offsetAt(p.position))) {
    if (t.kind === 'symbol') out.push({ uri: p.textDocument.uri, range: toRange(s.doc, t.range) });
    else {
      const file = templateFile(p.textDocument.uri, t.path);
      if (file) out.push({ uri: pathToFileURL(file).href, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } });
    }
  }
  return out;
}

function templateFile(uri: string, rel: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    const p = path.resolve(path.dirname(fileURLToPath(uri)), rel);
    return existsSync(p) ? p : undefined;
  } catch {
    return undefined;
  }
}
