export * from './core/index';
export * from './replay/index';
