/** The entity inspector (part of `rewindable/ui`). */
export {
  DEFAULT_ENTITY_INSPECTOR_OPTIONS,
  EntityInspector,
  type EntityInspectorOptions,
} from './EntityInspector';
export { FLAG_NAMES, flagNames, inspectState, type InspectedState, type InspectedValue } from './entityState';
export {
  fieldSourceOf,
  type InspectorFieldInfo,
  type InspectorFieldSource,
  type InspectorFieldType,
} from './fieldSource';
export { listLives, type EntityListRow } from './EntityList';
