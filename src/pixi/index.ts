/**
 * `rewindable/pixi`: the rewind overlay for pixi.js v8 games.
 *
 * Runtime names, in two tiers:
 * - what a game writes: `RewindOverlay` and its defaults, the binding helpers (`applyEntity2D`,
 *   `DEFAULT_FLAG_TINTS`), the camera convention (`recordWorldCamera`, `applyCamera`, `readCamera`,
 *   `createCamera`, `viewToWorld`, `CAM_*`), the default keys and styles its options merge over,
 *   the bone helpers for a custom `apply` (`boneWorldPositions`, `addStickFigure`), world-container
 *   space for nested objects (`recordDisplay`, `toWorldSpace`, `spaceToWorld`) and the clock types
 *   of the `pausables` option (`Pausable`);
 * - the parts the overlay exposes as fields (`overlay.camera`, `overlay.timeline`, `overlay.layers`,
 *   `overlay.presenter`, `overlay.keyboard`, `overlay.badge`...) are exported as types only: a game
 *   reads them, it does not build them.
 *
 * Everything else in this folder (`OverlayView`, `OverlayHud`, `ReplaySession`, `OverlayContext`,
 * `PrimitiveDrawer`, `ParagraphPool`, the save/restore helpers) is internal.
 */
export { RewindOverlay } from './RewindOverlay';
export {
  DEFAULT_REWIND_OVERLAY_OPTIONS,
  type OverlaySource,
  type RewindOverlayOptions,
  type ShowReplayOptions,
  type ShowReplaySource,
} from './RewindOverlayOptions';
export { DEFAULT_FLAG_TINTS, applyEntity2D, type EntityBinding, type EntityView } from './binding';
export {
  CAMERA_MODES,
  CAM_ANGLE,
  CAM_X,
  CAM_Y,
  CAM_ZOOM,
  applyCamera,
  createCamera,
  readCamera,
  recordWorldCamera,
  viewToWorld,
  type CameraArray,
  type CameraMode,
} from './camera';
export {
  DEFAULT_CAMERA_CONTROLLER_OPTIONS,
  type CameraController,
  type CameraControllerOptions,
} from './CameraController';
export {
  CHANNEL_COMMANDS,
  COMMAND_DESCRIPTIONS,
  DEFAULT_KEY_BINDINGS,
  describeKeys,
  keyName,
  type KeyBindings,
  type KeyboardControls,
  type KeyLine,
  type OverlayCommand,
} from './KeyboardControls';
export type { Timeline } from './Timeline';
export { DEFAULT_TIMELINE_STYLE, type TimelineStyle } from './TimelineStyle';
export type { TimelineScale } from './TimelineScale';
export type { TimelineLane } from './TimelineLanes';
export { DEFAULT_ONION_SKIN_OPTIONS, type OnionSkin, type OnionSkinOptions } from './OnionSkin';
export { DEFAULT_PARAGRAPH_STYLE, type ParagraphStyle } from './ParagraphPool';
export { DEFAULT_TEXT_PANEL_STYLE, type TextPanel, type TextPanelStyle } from './TextPanel';
export { recordDisplay, spaceToWorld, toWorldSpace } from './worldSpace';
export type { AudioClock, CustomClock, MediaClock, Pausable, TickerClock, TimelineClock } from './Pausables';
export { addStickFigure, boneWorldPositions, type BonedRows, type PathSink } from './bones';
export type { DebugLayers } from './DebugLayers';
export type { EntityPresenter } from './EntityPresenter';
