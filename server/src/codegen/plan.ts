// Where emitted files go. Pure path arithmetic: the CLI and the language server write what the
// plan allows, after their own checks (the server also refuses files with unsaved edits).
import * as nodePath from 'node:path';
import type { EmittedFile } from './emit-kernel.js';

export interface PlanOptions {
  /** folder the files go to (`--out DIR`, or the editor's configured folder), absolute or cwd-relative */
  outDir: string;
  /** when set, every file must land inside it (the editor's workspace folder) */
  workspaceRoot?: string;
}

export interface PlannedWrite {
  relPath: string;
  absPath: string;
  content: string;
}

export interface RefusedWrite {
  relPath: string;
  absPath: string;
  reason: string;
}

export interface EmitPlan {
  writes: PlannedWrite[];
  refused: RefusedWrite[];
}

function inside(root: string, p: string): boolean {
  const rel = nodePath.relative(root, p);
  return rel !== '' && !rel.startsWith('..') && !nodePath.isAbsolute(rel);
}

/** Resolves each emitted file under `outDir` and refuses any that would land outside it or the workspace. */
export function planEmit(files: readonly EmittedFile[], opts: PlanOptions): EmitPlan {
  const out = nodePath.resolve(opts.outDir);
  const root = opts.workspaceRoot === undefined ? undefined : nodePath.resolve(opts.workspaceRoot);
  const writes: PlannedWrite[] = [];
  const refused: RefusedWrite[] = [];
  const seen = new Set<string>();
  for (const f of files) {
    const absPath = nodePath.resolve(out, f.relPath);
    let reason: string | undefined;
    if (f.relPath === '' || f.relPath.includes('\0') || nodePath.isAbsolute(f.relPath) || f.relPath.split(/[\\/]/).includes('..')) {
      reason = `${JSON.stringify(f.relPath)} is not a plain relative path`;
    } else if (!inside(out, absPath)) {
      reason = `${absPath} is outside the output folder ${out}`;
    } else if (root !== undefined && !inside(root, absPath)) {
      reason = `${absPath} is outside the workspace ${root}`;
    } else if (seen.has(absPath)) {
      reason = `${absPath} is emitted twice (two blocks with one name?)`;
    }
    if (reason) refused.push({ relPath: f.relPath, absPath, reason });
    else {
      seen.add(absPath);
      writes.push({ relPath: f.relPath, absPath, content: f.content });
    }
  }
  return { writes, refused };
}
