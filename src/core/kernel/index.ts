export * from './EntityKernel';
