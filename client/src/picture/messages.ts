// Messages between the extension (client/src/picture/panel.ts) and the picture webview (client/src/webview/main.ts).
import type { ViewState } from '../../../server/src/picture/model.js';

export type ToWebview =
  /** draw this (unchecked) payload; `stale`: it is the last good one, the current text could not be drawn */
  | { type: 'picture'; picture: unknown; view?: ViewState; stale?: boolean }
  /** show a line of text above the picture ('' hides it) */
  | { type: 'status'; text: string };

export type ToExtension =
  | { type: 'ready' }
  | { type: 'rendered'; drawn: number; view: ViewState; title: string; caption: string; legend: string; problems: string[] }
  | { type: 'view'; view: ViewState }
  | { type: 'exportSvg'; view: ViewState }
  /** draw again with these params' values (`{}`: the declared values) */
  | { type: 'params'; overrides: Record<string, number> };
