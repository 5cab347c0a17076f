export * from './ReplayError';
export * from './replayFormat';
export * from './checksum';
export * from './xorDelta';
export * from './saveReplay';
export * from './loadReplay';
