// The HTML of the layout picture webview: no remote resources, a strict Content-Security-Policy that admits
// only the webview's own resources plus one nonce'd style block and one nonce'd script (dist/webview.js).

export interface PictureHtmlOptions {
  /** `webview.cspSource` */
  cspSource: string;
  /** a fresh random nonce per page (base64/alphanumeric) */
  nonce: string;
  /** `webview.asWebviewUri(dist/webview.js)` as a string */
  scriptUri: string;
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `img-src ${cspSource} data:`,
    `style-src 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    `font-src ${cspSource}`,
  ].join('; ');
}

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function pictureHtml(o: PictureHtmlOptions): string {
  if (!/^[A-Za-z0-9+/=]{16,}$/.test(o.nonce)) throw new Error('pictureHtml: the nonce must be at least 16 base64 characters');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(contentSecurityPolicy(o.cspSource, o.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>Layout picture</title>
<style nonce="${o.nonce}">
  [hidden] { display: none !important; }
  body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); background: var(--vscode-editor-background); padding: 8px 12px; }
  h1 { font-size: 1.2em; margin: 4px 0; font-family: var(--vscode-editor-font-family); }
  .bar { display: flex; gap: 6px; flex-wrap: wrap; margin: 6px 0; }
  button { color: var(--vscode-button-foreground); background: var(--vscode-button-background); border: none; padding: 3px 9px; cursor: pointer; }
  button:hover { background: var(--vscode-button-hoverBackground); }
  button:disabled { opacity: 0.4; cursor: default; }
  #caption, #expr { font-size: 0.9em; opacity: 0.85; margin: 2px 0; font-family: var(--vscode-editor-font-family); }
  #status { color: var(--vscode-editorWarning-foreground); margin: 4px 0; }
  #grid { overflow: auto; max-height: calc(100vh - 190px); }
  #legend { font-size: 0.9em; margin: 2px 0; }
  #problems { color: var(--vscode-errorForeground); font-size: 0.9em; margin: 2px 0; white-space: pre-line; }
  select, input { color: var(--vscode-input-foreground); background: var(--vscode-input-background); border: 1px solid var(--vscode-input-border, transparent); padding: 2px 4px; }
  input { width: 5em; }
  label { font-size: 0.9em; display: inline-flex; gap: 4px; align-items: center; }
  #params { display: flex; gap: 8px; flex-wrap: wrap; align-items: center; margin: 6px 0; }
  #tip { position: fixed; white-space: pre; pointer-events: none; padding: 4px 6px; font-family: var(--vscode-editor-font-family);
         background: var(--vscode-editorHoverWidget-background); color: var(--vscode-editorHoverWidget-foreground);
         border: 1px solid var(--vscode-editorHoverWidget-border); }
</style>
</head>
<body>
<h1 id="title">Layout</h1>
<div id="status">Waiting for the language server...</div>
<div class="bar">
  <button id="mode" title="Toggle between logical and physical order">Show physical order</button>
  <button id="zoomIn" title="Draw bigger">Zoom in</button>
  <button id="zoomOut" title="Draw smaller">Zoom out</button>
  <button id="left" title="Pan left">&larr;</button>
  <button id="right" title="Pan right">&rarr;</button>
  <button id="up" title="Pan up">&uarr;</button>
  <button id="down" title="Pan down">&darr;</button>
  <button id="export" title="Save the picture as an SVG file">Export SVG</button>
</div>
<div class="bar">
  <label>Colour <select id="color" title="What a cell's colour says">
    <option value="tile">tile</option><option value="level">level</option><option value="order">physical order</option>
    <option value="thread">thread (mod 32)</option><option value="bank">bank</option>
  </select></label>
  <label id="levelBox" hidden>level <select id="level"></select></label>
</div>
<div id="params" hidden></div>
<div id="caption"></div>
<div id="expr"></div>
<div id="legend"></div>
<div id="problems"></div>
<div id="grid"></div>
<div id="tip" hidden></div>
<script nonce="${o.nonce}" src="${attr(o.scriptUri)}"></script>
</body>
</html>`;
}
