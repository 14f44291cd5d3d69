// `layout/picture`: the cells of the layout at a position (or named), for the client's picture view.
import { picture as draw } from '../service/picture.js';
import type { PictureParams, PictureResult } from './protocol.js';
import type { ServerContext } from './context.js';

export function picture(ctx: ServerContext, p: PictureParams): PictureResult {
  const s = ctx.snapshot(p?.uri);
  if (!s) return null;
  const position = p.position && Number.isInteger(p.position.line) && Number.isInteger(p.position.character) ? p.position : { line: 0, character: 0 };
  const overrides = typeof p.overrides === 'object' && p.overrides !== null && !Array.isArray(p.overrides) ? p.overrides : undefined;
  return draw(s.model, s.doc.offsetAt(position), typeof p.name === 'string' ? p.name : undefined, overrides);
}
