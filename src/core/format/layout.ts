/**
 * The binary layout of one recorded frame inside the ring's arena. Every offset is in 32-bit words
 * from the frame's start; frames start on 8-byte boundaries so the `time` double is aligned.
 *
 * A frame is: a fixed header, then sections whose sizes the header gives, in this order:
 *
 * | section    | words                    | content                                                        |
 * |------------|--------------------------|----------------------------------------------------------------|
 * | entities   | `entityCount`            | `handle \| flags << 24` (u32)                                   |
 * | positions  | `3 * entityCount`        | x, y, z as float32, stored exactly                             |
 * | rotations  | `entityCount`            | smallest-three quaternion (see `math/quat.ts`)                 |
 * | bones      | `boneWords`              | per skinned entity: `index \| count << 20`, count quats, 3·count f32 offsets |
 * | primitives | `primWords`              | debug-draw records, see `PRIM_*`                               |
 * | events     | `EVENT_WORDS·eventCount` | kind, subject id, x, y, z, value                               |
 * | display    | `displayWords`           | per entity with 2D display state: see `DISPLAY_WORDS` (format 2)  |
 * | fields     | up to `totalWords`       | custom field blocks (format 3; see `fields/fieldLayout.ts`)       |
 *
 * The replay file format (docs/replay-format.md) stores these words verbatim.
 *
 * @advanced Exported by `rewindable/format`, except `EntityFlags`, `PrimitiveType` and `NO_SUBJECT`,
 * which a game uses and the `rewindable` entry exports.
 */

/** Frame header word offsets. */
export const H_FRAME = 0;
export const H_ENTITY_COUNT = 1;
/** Float64 game time; occupies words 2 and 3 (8-byte aligned). */
export const H_TIME = 2;
export const H_DT = 4;
export const H_OVER_BUDGET = 5;
export const H_DROPPED_PRIMS = 6;
export const H_DROPPED_TEXT = 7;
export const H_DROPPED_ENTITIES = 8;
export const H_SANITIZED = 9;
export const H_PRIM_WORDS = 10;
export const H_PRIM_COUNT = 11;
export const H_BONE_WORDS = 12;
export const H_EVENT_COUNT = 13;
export const H_FLAGS = 14;
export const H_CAM_X = 15;
export const H_CAM_Y = 16;
export const H_CAM_Z = 17;
export const H_CAM_ROT = 18;
export const H_CAM_ZOOM = 19;
export const H_TOTAL_WORDS = 20;
/**
 * Words of the display section (format 2; a multiple of `DISPLAY_WORDS`). Word 21 was padding in
 * format 1, always 0: a format-1 frame has no display section.
 */
export const H_DISPLAY_WORDS = 21;
/** Header size in words (even, so the sections that follow keep 8-byte frame alignment simple). */
export const HEADER_WORDS = 22;

/** Frame flag: the frame did not fit the arena and only its header was kept. */
export const FRAME_TRUNCATED = 1;
/** Frame flag: the game camera was recorded this frame. */
export const FRAME_HAS_CAMERA = 2;
/** Frame flag: field rows were dropped over the per-frame field budget (format 3). */
export const FRAME_FIELDS_OVER_BUDGET = 4;

/** Entity word: low 24 bits are the handle, high 8 bits the display flags. */
export const HANDLE_BITS = 24;
export const HANDLE_MASK = (1 << HANDLE_BITS) - 1;
/** Most handles (unique ids alive in the ring at once). */
export const MAX_HANDLES = 1 << HANDLE_BITS;

/** Bone record header: entity index in the low 20 bits, bone count in the high 12. */
export const BONE_INDEX_BITS = 20;
export const BONE_INDEX_MASK = (1 << BONE_INDEX_BITS) - 1;
export const MAX_BONES = (1 << 12) - 1;

/**
 * Primitive record word 0: `type` in bits 0-2, `channel` in bits 3-7, colour 0xRRGGBB in bits 8-31.
 * The floats that follow depend on the type (see `PRIM_WORDS`).
 */
export const PRIM_POINT = 0;
export const PRIM_LINE = 1;
export const PRIM_ARROW = 2;
export const PRIM_SPHERE = 3;
export const PRIM_AABB = 4;
export const PRIM_TEXT = 5;
export const PRIM_TYPE_COUNT = 6;

/**
 * Words of each primitive record, word 0 included. Text is `5 + ceil(byteLength / 4)`:
 * word 0, x, y, z, byteLength, then the Latin-1 bytes.
 */
export const PRIM_WORDS: readonly number[] = [
  5, // point: x y z size
  7, // line: x1 y1 z1 x2 y2 z2
  8, // arrow: x1 y1 z1 x2 y2 z2 headSize
  5, // sphere: x y z radius
  7, // aabb: minX minY minZ maxX maxY maxZ
  5, // text: x y z byteLength (+ bytes)
];
/**
 * The primitive types by name, for reading `PrimitiveBuffer.types` (the same values as `PRIM_*`).
 *
 * @example
 * for (let i = 0; i < prims.count; i++) if (prims.types[i] === PrimitiveType.TEXT) console.log(prims.text(i));
 */
export const PrimitiveType = {
  POINT: PRIM_POINT,
  LINE: PRIM_LINE,
  ARROW: PRIM_ARROW,
  SPHERE: PRIM_SPHERE,
  AABB: PRIM_AABB,
  TEXT: PRIM_TEXT,
} as const;

/** One of the `PrimitiveType` values. */
export type PrimitiveTypeValue = (typeof PrimitiveType)[keyof typeof PrimitiveType];

/** Floats carried by a primitive on the read side (the widest is the arrow). */
export const PRIM_FLOATS = 7;

/**
 * One display record (2D display state of one entity in the frame), 4 words: word 0 the entity's
 * index in the frame (low 20 bits) and `DISPLAY_VISIBLE` (bit 20); words 1-2 scale x and y
 * (float32); word 3 alpha in [0, 1] as `round(alpha · 65535)` (low 16 bits) and the texture index
 * (high 16 bits; `NO_TEXTURE`: none). Records are in increasing entity index, at most one each.
 */
export const DISPLAY_WORDS = 4;
export const DISPLAY_INDEX_MASK = (1 << 20) - 1;
export const DISPLAY_VISIBLE = 1 << 20;
/** Texture index of a display record that names no texture. */
export const NO_TEXTURE = 0xffff;
/** Most texture names of a recording (indices 0 .. 65,534). */
export const MAX_TEXTURES = 0xffff;

/** One event record: kind, subject id, x, y, z, value. */
export const EVENT_WORDS = 6;
/** Subject id of an event that concerns no entity. */
export const NO_SUBJECT = 0xffffffff;

/** Display flags (8 bits stored per entity per frame). */
export const EntityFlags = {
  /** The entity took damage; drawn with a damage tint. */
  DAMAGED: 1,
  /** Highlighted by the game (e.g. the player's target). */
  HIGHLIGHTED: 2,
  /** First of the five user bits (0x04 .. 0x40). */
  USER0: 4,
  USER1: 8,
  USER2: 16,
  USER3: 32,
  USER4: 64,
  /** Set by the recorder: this frame's input was invalid (NaN position, zero quaternion) and was repaired. */
  SANITIZED: 128,
} as const;

/** Words needed for a text record of `byteLength` bytes. */
export function textRecordWords(byteLength: number): number {
  return PRIM_WORDS[PRIM_TEXT] + ((byteLength + 3) >>> 2);
}

/**
 * Word offset (in `u`) of the field section of the frame at word `at`: the words after every other
 * section (the display section included), up to the frame's `totalWords`. A frame without fields
 * (every format-1 and format-2 frame) has its field section empty: the offset is then
 * `at + totalWords`.
 */
export function fieldSectionAt(u: Uint32Array, at: number): number {
  return (
    at +
    HEADER_WORDS +
    u[at + H_ENTITY_COUNT] * 5 +
    u[at + H_BONE_WORDS] +
    u[at + H_PRIM_WORDS] +
    u[at + H_EVENT_COUNT] * EVENT_WORDS +
    u[at + H_DISPLAY_WORDS]
  );
}
