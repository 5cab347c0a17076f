export * from './Bookmarks';
export * from './Lifetimes';
export * from './MarkerIndex';
export * from './Playback';
export * from './SampleBuffer';
export * from './Sampler';
export * from './TimeControl';
