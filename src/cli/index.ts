export * from './info';
