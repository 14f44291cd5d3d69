// `layout/picture`: the cells of the layout at a position, for the client's picture view.
import type { PictureParams, PictureResult } from './protocol.js';
import type { ServerContext } from './context.js';

export function picture(_ctx: ServerContext, _p: PictureParams): PictureResult {
  return null;
}
