// Values of params and lets at the params' values (through check/schedule/'s evaluator), cached per snapshot.
import { envLookup, scheduleEnvFromFile, type ScheduleEnv } from '../check/schedule/index.js';
import type { LayoutDocument } from './document.js';

const envCache = new WeakMap<LayoutDocument, ScheduleEnv | null>();
export function envOf(doc: LayoutDocument): ScheduleEnv {
  let env = envCache.get(doc);
  if (env === undefined) {
    env = safe(() => scheduleEnvFromFile(doc.file)) ?? null;
    envCache.set(doc, env);
  }
  return env ?? { params: new Map() };
}

/** The value of a param or let at the params' values, when it has one. */
export function valueOf(doc: LayoutDocument, name: string): bigint | undefined {
  const r = safe(() => envLookup(envOf(doc))(name, { start: 0, end: 0 }));
  return r && r.ok ? r.value : undefined;
}

export function oneLine(s: string): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > 120 ? one.slice(0, 117) + '...' : one;
}

function safe<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}
