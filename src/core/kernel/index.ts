export {
  DEFAULT_ENTITY_KERNEL_OPTIONS,
  EntityKernel,
  type DespawnFn,
  type EntityKernelOptions,
  type MatchFn,
} from './EntityKernel';
