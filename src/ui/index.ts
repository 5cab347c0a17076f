/** `rewindable/ui`: the optional lil-gui panel for the rewind overlay, and the entity inspector. */
export { DEFAULT_REWIND_PANEL_OPTIONS, RewindPanel, type RewindPanelOptions } from './RewindPanel';
export {
  DEFAULT_ENTITY_INSPECTOR_OPTIONS,
  EntityInspector,
  type EntityInspectorOptions,
  FLAG_NAMES,
  fieldSourceOf,
  flagNames,
  inspectState,
  type InspectedState,
  type InspectedValue,
  type InspectorFieldInfo,
  type InspectorFieldSource,
  type InspectorFieldType,
  listLives,
  type EntityListRow,
} from './inspector/index';
