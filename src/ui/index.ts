/** `rewindable/ui`: the optional lil-gui panel for the rewind overlay. */
export { DEFAULT_REWIND_PANEL_OPTIONS, RewindPanel, type RewindPanelOptions } from './RewindPanel';
