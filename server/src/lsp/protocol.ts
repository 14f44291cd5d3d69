// Custom LSP requests and commands shared by the language server (server/src/lsp/) and the VS Code
// client (client/src/). Plain types and method-name constants only: this file imports nothing, so
// both bundles can include it. Keep it small; change it together with both sides.

/** A position as LSP sends it: zero-based line and UTF-16 character. */
export interface ProtocolPosition {
  line: number;
  character: number;
}

// ------------------------------------------------------------------- emit

/** `workspace/executeCommand` command id that generates code. Arguments: `[EmitArgs]`. Result: `EmitResult`. */
export const EMIT_COMMAND = 'layout.emit';

export type EmitTarget = 'triton' | 'cuda' | 'mlir';
export const EMIT_TARGETS: readonly EmitTarget[] = ['triton', 'cuda', 'mlir'];

export interface EmitArgs {
  /** the `.layout` document's URI */
  uri: string;
  target: EmitTarget;
  /** name of one kernel/schedule block to emit; absent: every block of the file for this target */
  block?: string;
  /** the document version the client saw; the server refuses to emit from a different version */
  version: number;
  /** emit even though the blocks (or declarations they depend on) have errors; the files are marked */
  force?: boolean;
}

export interface EmitResult {
  /** file URIs the server wrote (it never writes outside the workspace nor over a file with unsaved edits) */
  written: string[];
  /** human-readable notes and reasons (e.g. why nothing was written), shown to the user */
  messages: string[];
  /**
   * present when nothing was written because the emitted blocks, or declarations they depend on, have
   * errors: each as `line:col: message [code]` (1-based); sending the request again with `force` emits anyway
   */
  blockedBy?: string[];
}

// ---------------------------------------------------------------- picture

/**
 * Client command (VS Code: registered by the extension, not announced by the server) that opens the layout
 * picture. The server's "Show layout" code lenses call it with `[ShowLayoutArgs]`.
 */
export const SHOW_LAYOUT_COMMAND = 'layout.showLayout';

/**
 * `initializationOptions` a client sends so the server offers what only it can run: `clientCommands` lists
 * the client-side commands it has (VS Code: `[SHOW_LAYOUT_COMMAND]`). Without it (Neovim, Emacs, Helix, ...)
 * the server sends no "Show layout" code lenses, whose command such a client could not run.
 */
export interface LayoutInitializationOptions {
  clientCommands?: string[];
}

export interface ShowLayoutArgs {
  /** the `.layout` document's URI */
  uri: string;
  /** the layout's name (the picture is requested by name, so it follows edits) */
  name: string;
  /** where the name is declared: the fallback when the name no longer resolves */
  position: ProtocolPosition;
}

/** Request: the picture of the layout declared or used at a position. Params `PictureParams`, result `PictureResult`. */
export const PICTURE_REQUEST = 'layout/picture';

export interface PictureParams {
  uri: string;
  position: ProtocolPosition;
  /** when set, draw the layout of this name (the client re-requests by name after edits); `position` is the fallback */
  name?: string;
  /** params to draw with instead of their declared values (e.g. small sizes: `{ M: 8, N: 8 }`) */
  overrides?: Record<string, number>;
}

/** One tile of a summarised picture: the tile's coordinates and the physical positions its cells take. */
export interface PictureTile {
  /** the tile's coordinates, one per tile dimension (every level but the last), outermost first */
  tile: number[];
  /** the physical position of the tile's first cell (its local coordinates all 0) */
  first: number;
  /** the least and greatest physical position of the tile's cells, when they were computed */
  min?: number;
  max?: number;
}

/** A param the picture was drawn with. */
export interface PictureParam {
  name: string;
  /** the value used */
  value: number;
  /** the declared value (differs from `value` when overridden) */
  declared: number;
  /** the tuning candidates declared with it (`param BM = 128 in [64, 128, 256]`) */
  choices?: number[];
}

export interface PictureCell {
  /** logical coordinates, one per entry of `logicalDims` */
  logical: number[];
  /** physical (flat) position the layout maps them to; -1 for padding (an ExpandBy's cells outside the original shape) */
  physical: number;
  /** colour group: tile index (or thread / warp, see `groupKind`) */
  group: number;
  /**
   * the shared-memory bank of the cell's element, when the server has a bank analysis for this layout (the
   * F2 layer's, server/src/f2/banks.ts); absent: the picture's `bank` colouring assumes 32 banks of 4 bytes
   * and the element at its position
   */
  bank?: number;
  /** the cell's label in logical order, when not its physical position (a distributed `linear` layout: `t5:r2`) */
  label?: string;
  /** one more line for the cell's hover (a distributed `linear` layout: the threads that hold it) */
  note?: string;
}

export interface LayoutPicture {
  /** the layout's name, or its source text when it has none */
  name: string;
  /** sizes of the logical dimensions, outermost first */
  logicalDims: number[];
  /**
   * which logical dimensions form the picture's rows and columns (outermost first). Absent: an even rank
   * 2k is read as k tiling levels of a 2-D shape (rows = even dims, columns = odd dims); an odd rank puts
   * the last dimension on columns and the rest on rows.
   */
  grid?: { rows: number[]; cols: number[] };
  /** physical positions drawn as a grid of [rows, cols] in the "physical order" view; absent: as wide as the logical grid */
  physicalShape?: [number, number];
  /** what `group` counts; absent: 'tile' */
  groupKind?: 'tile' | 'thread' | 'warp';
  /** the cells; at most the server's cap (see `truncated`), in logical row-major order */
  cells: PictureCell[];
  /** the total number of cells of the layout (may exceed `cells.length`) */
  totalCells: number;
  /** true when `cells` holds only part of the layout */
  truncated: boolean;
  /** printed expressions: `apply` maps the logical index names (`vars`) to the physical position */
  exprs: { apply: string; inv?: string; vars?: string[] };
  /**
   * the tiling levels' shapes, outermost first, whose concatenation is `logicalDims` (a TileBy's or a nested
   * GroupBy's levels). Absent or one level: the layout is not tiled.
   */
  levels?: number[][];
  /**
   * the summarised view of a big tiled layout: one entry per tile (every level but the last), in row-major
   * order of the tile coordinates; then `cells` is empty or holds only the first cells
   */
  tiles?: PictureTile[];
  /** physical positions that more than one cell maps to (a broken GenP), ascending, at most 256 */
  collisions?: number[];
  /** physical positions in [0, totalCells) that no cell maps to, ascending, at most 256 */
  missing?: number[];
  /** how many cells the collision / missing check looked at (all of them unless the layout is huge) */
  checkedCells?: number;
  /** the params of the file with the values used */
  params?: PictureParam[];
  /** the colouring to use when the view names none (a `linear` layout: `bank` when shared, `thread` when distributed) */
  colorBy?: 'bank' | 'thread';
  /** what that colouring means, as the server computed it (replaces the default legend for it) */
  legend?: string;
}

/** `null`: there is no layout at that position. `{ error }`: there is one but it cannot be drawn (why). */
export type PictureResult = LayoutPicture | { error: string } | null;
