// The names a declaration declares and uses (and whether it calls GenP): what the incremental
// analysis (incremental.ts) and the main thread's elaboration (elaboration.ts) track dependencies by.
import type * as ast from '../../../grammar/src/ast.js';

/** The names a declaration declares, every name it uses, and whether it contains a `GenP(...)` call. */
export function names(d: ast.Decl): { defines: string[]; uses: Set<string>; genp: boolean } {
  const defines: string[] = d.kind === 'Param' ? d.items.map((it) => it.name.name) : d.kind === 'Assume' ? [] : [d.name.name];
  const uses = new Set<string>();
  let genp = false;
  const stack: unknown[] = [d];
  while (stack.length) {
    const n = stack.pop();
    if (Array.isArray(n)) {
      for (const x of n) stack.push(x);
      continue;
    }
    if (n === null || typeof n !== 'object') continue;
    const o = n as Record<string, unknown>;
    // every name and identifier counts as a use (the declared names too: harmless, and it keeps
    // locals that shadow globals and schedule handles on the safe side)
    if ((o.kind === 'Name' || o.kind === 'Ident') && typeof o.name === 'string') uses.add(o.name);
    else if (o.kind === 'Call') {
      const callee = (o as unknown as ast.Call).callee;
      uses.add(callee.name);
      if (callee.name === 'GenP') genp = true;
    }
    for (const k in o) {
      const v = o[k];
      if (v !== null && typeof v === 'object' && k !== 'range') stack.push(v);
    }
  }
  return { defines, uses, genp };
}

/**
 * `starts` and everything they depend on by name, transitively: every node `definers` gives for a
 * name `uses` lists. The incremental analysis's elaborated closure and the emission gate's (`dependsOn`,
 * here and in service/incremental.ts) are this one walk.
 */
export function closureByName<T>(starts: Iterable<T>, uses: (x: T) => Iterable<string>, definers: (name: string) => Iterable<T> | undefined): Set<T> {
  const seen = new Set<T>();
  const stack: T[] = [];
  for (const s of starts) if (!seen.has(s)) { seen.add(s); stack.push(s); }
  while (stack.length) {
    const x = stack.pop()!;
    for (const n of uses(x)) for (const k of definers(n) ?? []) if (!seen.has(k)) { seen.add(k); stack.push(k); }
  }
  return seen;
}

/**
 * `EmissionGate.dependsOn` for a whole file (the CLI's and the editor's whole-file check): the
 * declarations a kernel depends on by name, transitively, as the incremental analysis finds them from
 * its kept `users`/`definers` indexes (every declaration that declares a name used).
 */
export function dependsOnByName(file: ast.File): (kernel: ast.KernelDecl) => ReadonlySet<ast.Decl> {
  let definers: Map<string, ast.Decl[]> | undefined;
  const usesOf = new Map<ast.Decl, Set<string>>();
  const uses = (d: ast.Decl) => {
    let u = usesOf.get(d);
    if (!u) usesOf.set(d, (u = names(d).uses));
    return u;
  };
  return (kernel) => {
    if (!definers) {
      definers = new Map();
      for (const d of file.decls) {
        for (const n of names(d).defines) {
          let list = definers.get(n);
          if (!list) definers.set(n, (list = []));
          list.push(d);
        }
      }
    }
    const all = definers;
    return closureByName<ast.Decl>([kernel], uses, (n) => all.get(n));
  };
}
