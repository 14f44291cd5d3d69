// The user settings the language service reads, with defaults and validation.
// Settings arrive from the editor as untrusted JSON: `readSettings` never throws and falls back
// to the default for every value that is missing or of the wrong kind.
import { lookupTarget } from '../check/targets.js';
import { DEFAULT_BUDGET } from '../check/rules/index.js';

export type HoverLanguage = 'c' | 'triton' | 'python' | 'mlir';

export interface Settings {
  hover: { language: HoverLanguage };
  inlayHints: { enabled: boolean; maxLength: number };
  /** the target the schedule checks assume when a schedule names none: a key of check/targets.ts's TARGETS (`sm_80` ... `sm_90`, `cpu`) */
  gpuTarget: string;
  emit: { outputFolder: string };
  /** the largest number of points an exhaustive GenP bijectivity check may enumerate */
  genp: { checkBudget: number };
  /** milliseconds between the last edit and the start of an analysis */
  diagnostics: { debounceMs: number };
}

export const defaultSettings: Settings = {
  hover: { language: 'triton' },
  inlayHints: { enabled: true, maxLength: 60 },
  gpuTarget: 'sm_90',
  emit: { outputFolder: 'generated' },
  // the CLI's budget (`layout check`): the same file gets the same answer in both
  genp: { checkBudget: DEFAULT_BUDGET },
  // 0: an analysis starts at once; a newer edit stops it cooperatively (analysis-runner.ts)
  diagnostics: { debounceMs: 0 },
};

const hoverLanguages: readonly HoverLanguage[] = ['c', 'triton', 'python', 'mlir'];

/** Reads the `layout` section of the editor's configuration. */
export function readSettings(raw: unknown): Settings {
  const r = asObject(raw);
  const hover = asObject(r.hover);
  const inlay = asObject(r.inlayHints);
  const emit = asObject(r.emit);
  const genp = asObject(r.genp);
  const diag = asObject(r.diagnostics);
  const d = defaultSettings;
  return {
    hover: {
      language: hoverLanguages.includes(hover.language as HoverLanguage) ? (hover.language as HoverLanguage) : d.hover.language,
    },
    inlayHints: {
      enabled: typeof inlay.enabled === 'boolean' ? inlay.enabled : d.inlayHints.enabled,
      maxLength: intIn(inlay.maxLength, 4, 10_000, d.inlayHints.maxLength),
    },
    gpuTarget: typeof r.gpuTarget === 'string' && lookupTarget(r.gpuTarget) ? r.gpuTarget : d.gpuTarget,
    emit: { outputFolder: typeof emit.outputFolder === 'string' ? emit.outputFolder : d.emit.outputFolder },
    genp: { checkBudget: intIn(genp.checkBudget, 0, 1e12, d.genp.checkBudget) },
    diagnostics: { debounceMs: intIn(diag.debounceMs, 0, 10_000, d.diagnostics.debounceMs) },
  };
}

function asObject(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function intIn(v: unknown, lo: number, hi: number, dflt: number): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= lo && v <= hi ? Math.floor(v) : dflt;
}
