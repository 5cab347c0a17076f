export {
  MAX_ARENA_BYTES, MAX_CHANNEL_BUDGET, MAX_COLOR, MAX_ENTITIES_PER_FRAME, MAX_ENTITY_ID, MAX_FRAMES, MAX_KINDS,
  MAX_STATIC_BYTES, MAX_STATIC_LAYERS, MAX_STRING_LENGTH, USER_FLAGS_MASK, channelBudgetProblem, colorProblem,
  firstNonFiniteF32, isFiniteF32, isIntIn, isPositiveF32, quatWordIsValid, repairString, skeletonProblem, stringProblem,
} from './rules';
export { WarnOnce } from './WarnOnce';
