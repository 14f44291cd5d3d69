// `layout check --format sarif`: the diagnostics as one SARIF 2.1.0 log (OASIS SARIF 2.1.0), in the subset
// GitHub code scanning reads (github/codeql-action/upload-sarif): one run whose tool.driver names `layout`
// and lists one rule per diagnostic code; each result has ruleId/ruleIndex, level, message.text and one
// physical location. A location's uri is the file's path relative to the working directory with `/`
// separators (uriBaseId %SRCROOT%, the repository root when run there), or a file:// URI outside it;
// columns count UTF-16 code units, as `layout check` does, and are 1-based; endColumn is exclusive.
import * as nodePath from 'node:path';
import { pathToFileURL } from 'node:url';
import pkg from '../../../package.json' with { type: 'json' };
import type { JsonDiagnostic } from './check.js';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

export interface SarifLog {
  $schema: string;
  version: '2.1.0';
  runs: SarifRun[];
}

export interface SarifRun {
  tool: { driver: { name: string; semanticVersion: string; rules: SarifRule[] } };
  columnKind: 'utf16CodeUnits';
  originalUriBaseIds: Record<string, { uri: string }>;
  results: SarifResult[];
}

export interface SarifRule {
  id: string;
  name: string;
  shortDescription: { text: string };
  defaultConfiguration: { level: SarifLevel };
}

export type SarifLevel = 'error' | 'warning' | 'note';

export interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: SarifLevel;
  message: { text: string };
  locations: {
    physicalLocation: {
      artifactLocation: { uri: string; uriBaseId?: string };
      region: { startLine: number; startColumn: number; endLine: number; endColumn: number };
    };
  }[];
}

const levelOf = { error: 'error', warning: 'warning', info: 'note', hint: 'note' } as const;

export function toSarif(diagnostics: readonly JsonDiagnostic[], cwd: string): SarifLog {
  const rules: SarifRule[] = [];
  const ruleIndex = new Map<string, number>();
  const results: SarifResult[] = [];
  for (const d of diagnostics) {
    let index = ruleIndex.get(d.code);
    if (index === undefined) {
      index = rules.length;
      ruleIndex.set(d.code, index);
      rules.push({
        id: d.code,
        name: ruleName(d.code),
        shortDescription: { text: `layout diagnostic ${d.code} (docs/diagnostics.md)` },
        defaultConfiguration: { level: levelOf[d.severity] },
      });
    }
    results.push({
      ruleId: d.code,
      ruleIndex: index,
      level: levelOf[d.severity],
      message: { text: d.message },
      locations: [{ physicalLocation: { artifactLocation: artifact(d.file, cwd), region: { startLine: d.line, startColumn: d.column, endLine: d.endLine, endColumn: d.endColumn } } }],
    });
  }
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [{
      tool: { driver: { name: 'layout', semanticVersion: pkg.version, rules } },
      columnKind: 'utf16CodeUnits',
      originalUriBaseIds: { '%SRCROOT%': { uri: pathToFileURL(cwd.endsWith(nodePath.sep) ? cwd : cwd + nodePath.sep).href } },
      results,
    }],
  };
}

/** `name/undefined` -> `NameUndefined` (SARIF's rule name is an identifier-like word) */
function ruleName(code: string): string {
  return code.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join('');
}

function artifact(file: string, cwd: string): { uri: string; uriBaseId?: string } {
  const abs = nodePath.resolve(cwd, file);
  const rel = nodePath.relative(cwd, abs);
  if (rel === '' || rel.startsWith('..') || nodePath.isAbsolute(rel)) return { uri: pathToFileURL(abs).href };
  return { uri: rel.split(nodePath.sep).map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' };
}
