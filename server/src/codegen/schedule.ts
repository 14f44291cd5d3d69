// `schedule` blocks emit MLIR through the MLIR generator (./mlir/, another module's); this file
// only adapts its results to the facade's `{ files, diagnostics }`.
import type { ScheduleDecl } from '../../../grammar/src/ast.js';
import type { Diagnostic } from '../../../grammar/src/diagnostic.js';
import { scheduleEnvFromFile } from '../check/schedule/index.js';
import { emitSchedule } from './mlir/emit-schedule.js';
import { fromAst } from './mlir/schedule-spec.js';
import type { EmittedFile } from './emit-kernel.js';
import type { File } from '../../../grammar/src/ast.js';

/** A schedule block's payload and transform-library files. Never throws. */
export function emitScheduleBlock(model: { file: File; sourceLabel: string }, decl: ScheduleDecl): { files: EmittedFile[]; diagnostics: Diagnostic[] } {
  const name = decl.name.name;
  try {
    const env = scheduleEnvFromFile(model.file, model.sourceLabel);
    const r = fromAst(decl, env, { file: model.sourceLabel });
    if (!r.spec) return { files: [], diagnostics: r.diagnostics };
    const e = emitSchedule(r.spec);
    if (!e.ok) return { files: [], diagnostics: [...r.diagnostics, ...e.diagnostics] };
    return {
      files: [
        { relPath: `${name}.payload.mlir`, content: e.payload },
        { relPath: `${name}.transform.mlir`, content: e.transform },
      ],
      diagnostics: r.diagnostics,
    };
  } catch (err) {
    return {
      files: [],
      diagnostics: [{
        code: 'emit/internal-error',
        severity: 'error',
        message: `internal error while generating MLIR for schedule ${name}: ${err instanceof Error ? err.message : String(err)}`,
        range: decl.name.range,
      }],
    };
  }
}
