/** The inspector's stylesheet (one `<style>` per document, shared by every inspector). */
const CSS = `
.rewindable-inspector { position: fixed; z-index: 15; box-sizing: border-box; max-width: calc(100vw - 24px);
  overflow: auto; background: rgba(12, 13, 16, 0.98); color: #e6e6e6; border: 1px solid #2c2f36; border-radius: 4px;
  font: 11px/1.45 ui-monospace, Menlo, Consolas, monospace; user-select: text; -webkit-user-select: text; }
.rewindable-inspector[hidden] { display: none; }
.rewindable-inspector button { font: inherit; color: #e6e6e6; background: #24272e; border: 1px solid #3a3e47;
  border-radius: 3px; padding: 0 5px; cursor: pointer; }
.rewindable-inspector button:hover { background: #30343d; }
.rewindable-inspector button.rw-on { background: #0a84ff; border-color: #0a84ff; }
.rewindable-inspector .rw-head { position: sticky; top: 0; display: flex; gap: 6px; align-items: center; padding: 4px 6px;
  background: #16181d; border-bottom: 1px solid #2c2f36; z-index: 1; }
.rewindable-inspector .rw-title { font-weight: bold; }
.rewindable-inspector .rw-status { flex: 1; color: #8a909c; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; }
.rewindable-inspector .rw-hint { padding: 6px; color: #8a909c; max-width: 260px; }
.rewindable-inspector .rw-list { padding: 6px; width: 260px; }
.rewindable-inspector .rw-list input { width: 100%; box-sizing: border-box; font: inherit; color: #e6e6e6; background: #0c0d10;
  border: 1px solid #3a3e47; padding: 2px 4px; }
.rewindable-inspector .rw-list-rows { max-height: 40vh; overflow: auto; margin-top: 4px; display: flex; flex-direction: column; }
.rewindable-inspector .rw-list-row { text-align: left; border: 0; background: transparent; padding: 1px 2px; white-space: nowrap; }
.rewindable-inspector .rw-list-more { color: #8a909c; padding: 2px; }
.rewindable-inspector .rw-cards { display: flex; gap: 6px; padding: 6px; align-items: flex-start; }
.rewindable-inspector .rw-cards:empty { display: none; }
.rewindable-inspector .rw-card { flex: none; border: 1px solid #2c2f36; border-radius: 3px; padding: 4px 6px; }
.rewindable-inspector .rw-card.rw-selected { border-color: #ffffff80; }
.rewindable-inspector .rw-card.rw-pinned { border-color: #0a84ff; }
.rewindable-inspector .rw-card.rw-absent .rw-val { color: #6c717c; }
.rewindable-inspector .rw-card-head { display: flex; gap: 4px; align-items: center; margin-bottom: 2px; }
.rewindable-inspector .rw-card-title { flex: 1; font-weight: bold; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.rewindable-inspector .rw-row { display: flex; gap: 6px; }
.rewindable-inspector .rw-key { color: #8a909c; min-width: 64px; }
.rewindable-inspector .rw-val { white-space: pre; }
.rewindable-inspector .rw-enum { border-left: 6px solid transparent; padding-left: 4px; }
.rewindable-inspector .rw-link { border: 0; background: transparent; color: #64d2ff; padding: 0; text-decoration: underline; }
.rewindable-inspector .rw-jumps { margin: 2px 0; }
.rewindable-inspector .rw-lane { margin-left: 6px; font-size: 10px; padding: 0 4px; }
.rewindable-inspector .rw-section { margin-top: 4px; color: #8a909c; border-top: 1px solid #2c2f36; }
.rewindable-inspector .rw-graph-row[hidden] { display: none; }
.rewindable-inspector .rw-graph { position: relative; margin: 1px 0 3px; background: #0c0d10; cursor: crosshair; touch-action: none; }
.rewindable-inspector .rw-graph canvas { position: absolute; left: 0; top: 0; width: 100%; height: 100%; }
.rewindable-inspector .rw-graph-max, .rewindable-inspector .rw-graph-min { position: absolute; right: 2px; font-size: 9px;
  line-height: 1; color: #8a909c; pointer-events: none; }
.rewindable-inspector .rw-graph-max { top: 1px; }
.rewindable-inspector .rw-graph-min { bottom: 1px; }
`;

const STYLE_ID = 'rewindable-inspector-style';

/** Adds the inspector's stylesheet to `doc` once. */
export function installInspectorStyle(doc: Document): void {
  if (doc.getElementById(STYLE_ID) !== null) return;
  const style = doc.createElement('style');
  style.id = STYLE_ID;
  style.textContent = CSS;
  doc.head.append(style);
}
