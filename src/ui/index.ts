export * from './RewindPanel';
