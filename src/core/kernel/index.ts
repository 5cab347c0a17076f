export { DEFAULT_ENTITY_KERNEL_OPTIONS, EntityKernel, type EntityKernelOptions, type MatchFn } from './EntityKernel';
