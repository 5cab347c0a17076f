/**
 * `loadReplay`: the raw-byte checks (input type, size, magic, version), the MessagePack decode of
 * the header and the frames, then the header (`replayHeader.ts`) and the frames (`replayFrames.ts`)
 * parsed and checked, and fresh core objects built over them.
 */
import { FrameReader } from '../core/read/FrameReader';
import { FieldSchemas } from '../core/fields/FieldSchemas';
import { ChannelRegistry } from '../core/store/ChannelRegistry';
import { EntityTable } from '../core/store/EntityTable';
import type { FrameRing } from '../core/store/FrameRing';
import { StaticLayers } from '../core/store/StaticLayers';
import { primitiveChannelMask } from '../core/format/channelMask';
import { ReplayError } from './ReplayError';
import type { ReplayWarning } from './ReplayError';
import {
  BUILTIN_CHANNEL_NAMES,
  DEFAULT_REPLAY_LIMITS,
  HOST_IS_LITTLE_ENDIAN,
  REPLAY_FORMAT_VERSION,
  REPLAY_MAGIC_BYTES,
  REPLAY_MIN_FORMAT_VERSION,
} from './replayFormat';
import type { ReplayCompression, ReplayLimits } from './replayFormat';
import { loadFrames } from './replayFrames';
import { parseHeader, readVersion } from './replayHeader';
import type { ReplayBookmark, ReplayInfo } from './saveReplay';
import { MsgDecoder } from './MsgDecoder';
import { corrupt, typeName } from './schema';
import { WarningList } from './WarningList';

/** Settings of `loadReplay`; see `DEFAULT_LOAD_REPLAY_OPTIONS`. */
export interface LoadReplayOptions {
  /** The running game's build id; a file from another build loads with a `BUILD_MISMATCH` warning. `null`: no check. */
  expectedBuildId: string | null;
  /** Whether to check the frame checksum (a pass over every word; off only for diagnosis). */
  verifyChecksum: boolean;
  /** Caps on every size and count (merged over `DEFAULT_REPLAY_LIMITS`). */
  limits: Partial<ReplayLimits>;
  /** Called for each warning as it is found (they are also in `LoadedReplay.warnings`). */
  onWarning: ((warning: ReplayWarning) => void) | null;
  /**
   * Diagnostics: incremented by the words, records and handles walked, so tests can prove the work
   * is bounded by the input rather than by counts the file claims.
   */
  workCounter: { units: number } | null;
}

/** The defaults merged under the options given to `loadReplay`. */
export const DEFAULT_LOAD_REPLAY_OPTIONS: Readonly<LoadReplayOptions> = {
  expectedBuildId: null,
  verifyChecksum: true,
  limits: {},
  onWarning: null,
  workCounter: null,
};

/** A loaded replay: fresh core objects over the file's frames, independent of any live recording. */
export interface LoadedReplay {
  /** Format version of the file. */
  readonly formatVersion: number;
  readonly buildId: string;
  /** When it was saved (ISO 8601, as written). */
  readonly savedAt: string;
  /** The info block; `fields` is a prototype-less object. */
  readonly info: ReplayInfo;
  readonly bookmarks: ReplayBookmark[];
  readonly compression: ReplayCompression;
  /** Size of the file. */
  readonly fileBytes: number;
  /** Size of the frame words (uncompressed). */
  readonly frameBytes: number;
  readonly ring: FrameRing;
  readonly entities: EntityTable;
  readonly channels: ChannelRegistry;
  readonly eventKinds: string[];
  /** Texture names of the display state (format 2; empty in a format-1 file). */
  readonly textures: string[];
  readonly staticLayers: StaticLayers;
  /** Reads the loaded frames, like `recorder.reader` reads live ones. */
  readonly reader: FrameReader;
  /** Non-fatal problems (build mismatch, unknown fields). */
  readonly warnings: ReplayWarning[];
}

const MAX_WARNINGS = 64;

/**
 * Loads a `.rwd` file into fresh core objects (ring, entity table, channels, event kinds, static
 * layers) and a `FrameReader` over them, after validating the magic, the version and every size,
 * count and frame section, so nothing the reader later decodes can be out of bounds. Never touches
 * a live recording.
 *
 * @throws ReplayError with a `code` (`BAD_MAGIC`, `NEWER_VERSION`, `TRUNCATED`, `CORRUPT`,
 *   `CHECKSUM`, `TOO_LARGE`...) and a `path` naming what is wrong. Nothing else escapes.
 * @example
 * const replay = loadReplay(await file.arrayBuffer(), { expectedBuildId: GAME_BUILD });
 * for (const w of replay.warnings) console.warn(w.message);
 * const playback = new Playback(replay.reader);
 */
export function loadReplay(bytes: Uint8Array | ArrayBuffer, options: Partial<LoadReplayOptions> = {}): LoadedReplay {
  try {
    return load(bytes, options);
  } catch (e) {
    if (e instanceof ReplayError) throw e;
    // Anything else still reaches the caller typed: an allocation the engine refused is TOO_LARGE.
    const message = e instanceof Error ? e.message : String(e);
    if (e instanceof RangeError && /alloc|length/i.test(message))
      throw new ReplayError('TOO_LARGE', `out of memory: ${message}`);
    throw new ReplayError('CORRUPT', `unexpected failure: ${message}`);
  }
}

function load(input: Uint8Array | ArrayBuffer, options: Partial<LoadReplayOptions>): LoadedReplay {
  const o: LoadReplayOptions = { ...DEFAULT_LOAD_REPLAY_OPTIONS, ...options };
  const limits: ReplayLimits = { ...DEFAULT_REPLAY_LIMITS, ...o.limits };
  const work = o.workCounter;
  const bytes = input instanceof ArrayBuffer ? new Uint8Array(input) : input;
  if (!(bytes instanceof Uint8Array))
    throw new ReplayError('BAD_INPUT', `expected a Uint8Array or ArrayBuffer, found ${typeName(bytes)}`);
  if (!HOST_IS_LITTLE_ENDIAN) throw new ReplayError('UNSUPPORTED_PLATFORM', 'replay files need a little-endian host');
  if (bytes.length > limits.maxFileBytes) {
    throw new ReplayError('TOO_LARGE', `${bytes.length} bytes exceed the limit of ${limits.maxFileBytes}`, 'file');
  }
  if (work !== null) work.units += 1;

  // Magic, then version: checked on raw bytes, before anything is decoded.
  for (let i = 0; i < REPLAY_MAGIC_BYTES.length; i++) {
    if (i >= bytes.length) {
      const detail =
        bytes.length === 0
          ? 'the file is empty'
          : `the file ends after ${bytes.length} bytes, inside the RWND signature`;
      throw new ReplayError('TRUNCATED', detail, 'magic');
    }
    if (bytes[i] !== REPLAY_MAGIC_BYTES[i])
      throw new ReplayError('BAD_MAGIC', 'not a rewindable replay (no RWND signature)', 'magic');
  }
  const { version, next } = readVersion(bytes, REPLAY_MAGIC_BYTES.length);
  if (version > REPLAY_FORMAT_VERSION) {
    throw new ReplayError(
      'NEWER_VERSION',
      `the file is format version ${version}; this reader knows versions up to ${REPLAY_FORMAT_VERSION}. Update rewindable to open it.`,
      'version',
    );
  }
  if (version < REPLAY_MIN_FORMAT_VERSION) {
    throw new ReplayError(
      'UNSUPPORTED_VERSION',
      `format version ${version} is not supported (${REPLAY_MIN_FORMAT_VERSION}..${REPLAY_FORMAT_VERSION} are)`,
      'version',
    );
  }

  // The header map and the frames array.
  if (next >= bytes.length) throw new ReplayError('TRUNCATED', 'the file ends after the format version', 'header');
  const decoder = new MsgDecoder(bytes);
  const headerValue = decoder.decode(next, 'header');
  if (decoder.position >= bytes.length) throw new ReplayError('TRUNCATED', 'the file ends after the header', 'frames');
  const framesValue = decoder.decode(decoder.position, 'frames');
  const end = decoder.position;
  if (end !== bytes.length) corrupt('file', `${bytes.length - end} unexpected bytes after the frames`);

  const warnings = new WarningList(MAX_WARNINGS, o.onWarning);
  const header = parseHeader(headerValue, version, limits, warnings, work);
  const { buildId, savedAt, info, channelList, kinds, skeletons, eventKinds, textures, fieldSchemas } = header;
  const { ents, bookmarks, layers, summary } = header;
  const { ring, total, dense, largest, rowOfHandle, usedChannels } = loadFrames(
    framesValue,
    header,
    limits,
    o.verifyChecksum,
    work,
  );
  const rows = ents.handle.length;

  // Entity table: the file's handles (or rows, when renumbered), so frame words decode unchanged.
  // Ids map through a sparse map: its memory follows the rows, not the largest id.
  const slots = dense ? largest : rows;
  const slotOf = (i: number): number => (dense ? ents.handle[i] : i);
  const entities = new EntityTable(slots, limits.maxEntityId, undefined, true);
  for (const k of kinds) entities.internKind(k);
  for (let k = 0; k < skeletons.length; k++) {
    const s = skeletons[k];
    if (s !== undefined) entities.skeletons[k] = s;
  }
  for (let hd = 0; hd < slots; hd++) entities.allocate(0, 0);
  if (rowOfHandle !== null) for (let hd = 0; hd < slots; hd++) if (rowOfHandle[hd] < 0) entities.release(hd);
  entities.map(0, -1);
  for (let i = 0; i < rows; i++) {
    const hd = slotOf(i);
    entities.ids[hd] = ents.id[i];
    entities.spawnFrames[hd] = ents.spawn[i];
    entities.setLastFrame(hd, ents.last[i], ents.ended[i] === 1);
    entities.kindOf[hd] = ents.kind[i];
    entities.labels[hd] = ents.label[i];
  }
  // An id maps to its newest life.
  for (let i = 0; i < rows; i++) {
    const hd = slotOf(i);
    const cur = entities.lookup(ents.id[i]);
    if (cur < 0 || entities.spawnFrames[cur] <= ents.spawn[i]) entities.map(ents.id[i], hd);
  }

  const channels = new ChannelRegistry(0);
  channelList.forEach((c, i) => {
    if (i < BUILTIN_CHANNEL_NAMES.length) channels.setBudget(i, c.budget);
    else channels.register(c.name, { color: c.color, budget: c.budget });
  });
  channels.markUsed(usedChannels);
  const staticLayers = new StaticLayers();
  for (const l of layers) {
    staticLayers.setEncoded(l.name, l.words, l.primCount);
    channels.markUsed(primitiveChannelMask(l.words, 0, l.words.length));
  }

  if (o.expectedBuildId !== null && o.expectedBuildId !== buildId) {
    warnings.add({
      code: 'BUILD_MISMATCH',
      message: `the replay was recorded by build ${JSON.stringify(buildId)}, this is build ${JSON.stringify(o.expectedBuildId)}; it may not match the current game`,
    });
  }
  warnings.finish();

  return {
    formatVersion: version,
    buildId,
    savedAt,
    info,
    bookmarks,
    compression: summary.codec,
    fileBytes: bytes.length,
    frameBytes: total * 4,
    ring,
    entities,
    channels,
    eventKinds,
    textures,
    staticLayers,
    reader: new FrameReader(ring, entities, channels, eventKinds, textures, fieldSchemas ?? new FieldSchemas()),
    warnings: warnings.list,
  };
}
