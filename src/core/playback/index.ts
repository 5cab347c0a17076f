export { type Bookmark, Bookmarks } from './Bookmarks';
export { Lifetimes } from './Lifetimes';
export { MarkerIndex, MarkerKind, type MarkerKindValue } from './MarkerIndex';
export { nearestMarker } from './nearestMarker';
export { DEFAULT_PLAYBACK_OPTIONS, Playback, type PlaybackOptions } from './Playback';
export { Presence, type PresenceValue, SampleBuffer } from './SampleBuffer';
export { DEFAULT_SAMPLER_OPTIONS, Sampler, type SamplerOptions } from './Sampler';
export { type PlaybackState, TimeControl } from './TimeControl';
export { DEFAULT_TIME_CONTROL_OPTIONS, type TimeControlOptions } from './TimeControlOptions';
