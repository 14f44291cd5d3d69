// The whole file's resolution (grammar/src/resolve.ts's `Resolution`) read through its declarations'
// resolutions ("units"): nothing here is built per version for the whole file up front. A use is
// looked up in the unit of the declaration that contains it; symbolAt reads one declaration's index.
import type * as ast from './ast.js';
import type { Diagnostic } from './diagnostic.js';
import type { Definition, Global, NameUse, Resolution, Unit } from './resolve.js';
import { declarerList, lookersOf, tableOf, TOP_LEVEL, type ResolveCache } from './resolve.js';

/** The whole file's resolution, read through its declarations' units. */
export class Composed implements Resolution {
  readonly refs: ReadonlyMap<NameUse, Definition>;
  readonly declarations: ReadonlyMap<ast.Ident, Definition>;
  private _definitions?: Definition[];
  private _free?: Definition[];
  private _used?: Set<Definition>;
  private _globals?: ReadonlyMap<string, Definition>;
  /** the first-declaration table of this version, once the cache has moved on */
  private _table?: Map<string, Global>;
  private readonly byDecl = new Map<ast.Decl, Unit>();

  constructor(
    private readonly decls: readonly ast.Decl[],
    private readonly unitList: readonly Unit[],
    private readonly cache: ResolveCache,
    private readonly stamp: number,
    readonly diagnostics: Diagnostic[],
  ) {
    this.refs = new UnitMap<NameUse, Definition>(decls, unitList, USES, () => undefined);
    this.declarations = new UnitMap<ast.Ident, Definition>(decls, unitList, LOCALS, (k) => this.topIdent(k), () => this.topEntries());
  }

  /** is this the cache's latest version (its live tables are this version's) */
  private get current(): boolean {
    return this.cache.stamp === this.stamp;
  }

  private table(): ReadonlyMap<string, Global> {
    if (this.current) return this.cache.table;
    this._table ??= tableOf(this.unitList);
    return this._table;
  }

  get globals(): ReadonlyMap<string, Definition> {
    this._globals ??= new GlobalsView(() => this.table());
    return this._globals;
  }

  /** the units of the file's declarations, in order (opaque keys: see `unitOf`) */
  units(): readonly Unit[] {
    return this.unitList;
  }

  private *topEntries(): Iterable<[ast.Ident, Definition]> {
    for (const u of this.unitList) for (const { def } of u.tops) yield [def.ident!, def];
  }

  /** a top-level declaring identifier's definition */
  private topIdent(k: ast.Ident): Definition | undefined {
    const j = lastStartingAt(this.decls, k.range.start);
    if (j < 0) return undefined;
    for (const t of this.unitList[j].tops) if (t.def.ident === k) return t.def;
    return undefined;
  }

  get definitions(): Definition[] {
    if (!this._definitions) {
      const out: Definition[] = [];
      for (const u of this.unitList) for (const { def } of u.tops) out.push(def);
      for (const u of this.unitList) for (const d of u.definitions) out.push(d);
      this._definitions = out;
    }
    return this._definitions;
  }

  get freeSymbols(): Definition[] {
    if (!this._free) {
      const out: Definition[] = [];
      for (const u of this.unitList) for (const d of u.definitions) if (d.kind === 'free') out.push(d);
      this._free = out;
    }
    return this._free;
  }

  references(def: Definition): NameUse[] {
    const out: NameUse[] = [];
    // a local or free symbol: its declaration's uses; a top-level name: the declarations that looked it
    // up (the cache's lookers of the name for its latest version: a hover's number of uses reads no other
    // declaration); a built-in (no declaration): every declaration
    const own = def.decl && !TOP_LEVEL.has(def.kind) ? this.unit(def.decl) : undefined;
    const units: Iterable<Unit> = own ? [own] : def.decl && this.current ? (lookersOf(this.cache).get(def.name) ?? []) : this.unitList;
    for (const u of units) {
      const uses = u.uses;
      for (let k = 1; k < uses.length; k += 2) if (uses[k] === def) out.push(uses[k - 1] as NameUse);
    }
    return out.sort((a, b) => a.range.start - b.range.start);
  }

  symbolAt(offset: number): { node: NameUse; definition: Definition } | undefined {
    // the last use or declaring identifier that starts at or before `offset`: in the last declaration
    // starting there, or (when it has none there) the one before
    for (let j = lastStartingAt(this.decls, offset); j >= 0; j--) {
      const index = indexOf(this.unitList[j]);
      const at = offset - this.decls[j].range.start;
      let lo = 0;
      let hi = index.length - 1;
      let found = -1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (index[mid].start <= at) { found = mid; lo = mid + 1; } else hi = mid - 1;
      }
      if (found < 0) continue;
      const hit = index[found];
      return at <= hit.end ? { node: hit.node, definition: hit.definition } : undefined;
    }
    return undefined;
  }

  isUsed(def: Definition): boolean {
    if (this.current) {
      const t = this.cache.table.get(def.name);
      return t !== undefined && t.def === def && t.uses > 0;
    }
    // an older resolution of a cached document: count again
    if (!this._used) {
      this._used = new Set();
      for (const u of this.unitList) {
        for (let k = 1; k < u.uses.length; k += 2) {
          const d = u.uses[k] as Definition;
          if (TOP_LEVEL.has(d.kind)) this._used.add(d);
        }
      }
    }
    return this._used.has(def);
  }

  declarersOf(name: string): readonly ast.Decl[] | undefined {
    if (!this.current) return undefined;
    return declarerList(this.cache.declarers.get(name)).map((t) => t.def.decl!);
  }

  unusedGlobals(): Definition[] {
    const out = this.current ? [...this.cache.unused] : [...this.globals.values()].filter((d) => !this.isUsed(d));
    return out.sort((x, y) => x.ident!.range.start - y.ident!.range.start);
  }

  unitOf(decl: ast.Decl): object | undefined {
    return this.unit(decl);
  }

  private unit(decl: ast.Decl): Unit | undefined {
    const j = lastStartingAt(this.decls, decl.range.start);
    if (j >= 0 && this.decls[j] === decl) return this.unitList[j];
    if (this.byDecl.size === 0) this.unitList.forEach((u) => this.byDecl.set(u.decl, u));
    return this.byDecl.get(decl);
  }
}

/** A read-only map over data kept elsewhere: the iteration methods, from `entries()`. */
abstract class MapView<K, V> implements ReadonlyMap<K, V> {
  abstract get(key: K): V | undefined;
  abstract has(key: K): boolean;
  abstract get size(): number;
  abstract entries(): MapIterator<[K, V]>;

  *keys(): MapIterator<K> {
    for (const [k] of this.entries()) yield k;
  }

  *values(): MapIterator<V> {
    for (const [, v] of this.entries()) yield v;
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }

  forEach(f: (value: V, key: K, map: ReadonlyMap<K, V>) => void): void {
    for (const [k, v] of this.entries()) f(v, k, this);
  }
}

/** The top-level names over a first-declaration table: looked up directly, listed in source order. */
class GlobalsView extends MapView<string, Definition> {
  private sorted?: [string, Definition][];
  constructor(private readonly table: () => ReadonlyMap<string, Global>) {
    super();
  }

  get(name: string): Definition | undefined {
    return this.table().get(name)?.def;
  }

  has(name: string): boolean {
    return this.table().has(name);
  }

  get size(): number {
    return this.table().size;
  }

  *entries(): MapIterator<[string, Definition]> {
    this.sorted ??= [...this.table()].sort((x, y) => x[1].def.ident!.range.start - y[1].def.ident!.range.start).map(([k, g]) => [k, g.def]);
    yield* this.sorted;
  }

}

/** the index of the last declaration that starts at or before `offset` (-1: none) */
export function lastStartingAt(decls: readonly ast.Decl[], offset: number): number {
  let lo = 0;
  let hi = decls.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (decls[mid].range.start <= offset) { found = mid; lo = mid + 1; } else hi = mid - 1;
  }
  return found;
}

/**
 * A unit's symbolAt index, by start relative to its declaration's start (a kept declaration moves,
 * service/chunks.ts: the index stays valid).
 */
function indexOf(u: Unit): NonNullable<Unit['index']> {
  if (!u.index) {
    const base = u.decl.range.start;
    const index: NonNullable<Unit['index']> = [];
    for (const { def } of u.tops) index.push({ start: def.ident!.range.start - base, end: def.ident!.range.end - base, node: def.ident!, definition: def });
    for (let k = 0; k < u.uses.length; k += 2) {
      const node = u.uses[k] as NameUse;
      index.push({ start: node.range.start - base, end: node.range.end - base, node, definition: u.uses[k + 1] as Definition });
    }
    for (const d of u.definitions) if (d.ident) index.push({ start: d.ident.range.start - base, end: d.ident.range.end - base, node: d.ident, definition: d });
    index.sort((a, b) => a.start - b.start);
    u.index = index;
  }
  return u.index;
}

/** How a `UnitMap` reads one unit's entries (keys are AST nodes inside its declaration). */
interface PerUnit<K, V> {
  get(u: Unit, key: K): V | undefined;
  entries(u: Unit): Iterable<[K, V]>;
  size(u: Unit): number;
}

/** a unit's uses: found by binary search on the start (uses are in source order), then by identity */
const USES: PerUnit<NameUse, Definition> = {
  get(u, key) {
    const uses = u.uses;
    const at = key.range.start;
    let lo = 0;
    let hi = uses.length / 2 - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if ((uses[2 * mid] as NameUse).range.start < at) lo = mid + 1;
      else hi = mid - 1;
    }
    for (let k = 2 * lo; k < uses.length && (uses[k] as NameUse).range.start === at; k += 2) if (uses[k] === key) return uses[k + 1] as Definition;
    return undefined;
  },
  *entries(u) {
    for (let k = 0; k < u.uses.length; k += 2) yield [u.uses[k] as NameUse, u.uses[k + 1] as Definition];
  },
  size: (u) => u.uses.length / 2,
};

/** a unit's locals' declaring identifiers (free symbols have none) */
const LOCALS: PerUnit<ast.Ident, Definition> = {
  get(u, key) {
    for (const d of u.definitions) if (d.ident === key) return d;
    return undefined;
  },
  *entries(u) {
    for (const d of u.definitions) if (d.ident) yield [d.ident, d];
  },
  size(u) {
    let n = 0;
    for (const d of u.definitions) if (d.ident) n++;
    return n;
  },
};

/**
 * A read-only map over the units' entries (keys are AST nodes of one declaration each): found through
 * the declaration that contains the node, which is where its entry is. `first` are entries before the
 * units' (the top-level declarations).
 */
class UnitMap<K extends { range: ast.Range }, V> extends MapView<K, V> {
  private last = -1;

  constructor(
    private readonly decls: readonly ast.Decl[],
    private readonly units: readonly Unit[],
    private readonly of: PerUnit<K, V>,
    /** entries before the units' (the top-level declaring identifiers): lookup and listing */
    private readonly firstGet: (key: K) => V | undefined,
    private readonly firstEntries: () => Iterable<[K, V]> = () => [],
  ) {
    super();
  }

  get(key: K): V | undefined {
    const f = this.firstGet(key);
    if (f !== undefined) return f;
    const at = key.range.start;
    let j = this.last;
    if (!(j >= 0 && this.decls[j].range.start <= at && at <= this.decls[j].range.end)) {
      j = lastStartingAt(this.decls, at);
      // a node outside every declaration's range (never seen): look everywhere
      if (j < 0 || at > this.decls[j].range.end) return this.scan(key);
      this.last = j;
    }
    return this.of.get(this.units[j], key);
  }

  private scan(key: K): V | undefined {
    for (const u of this.units) {
      const v = this.of.get(u, key);
      if (v !== undefined) return v;
    }
    return undefined;
  }

  has(key: K): boolean {
    return this.get(key) !== undefined;
  }

  get size(): number {
    let n = 0;
    for (const _ of this.firstEntries()) n++;
    for (const u of this.units) n += this.of.size(u);
    return n;
  }

  *entries(): MapIterator<[K, V]> {
    yield* this.firstEntries();
    for (const u of this.units) yield* this.of.entries(u);
  }

}

