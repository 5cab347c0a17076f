import { describe, expect, it } from 'vitest';
import {
  BONE_INDEX_BITS,
  DISPLAY_VISIBLE,
  DISPLAY_WORDS,
  MAX_BONES,
  MAX_TEXTURES,
  NO_TEXTURE,
} from '../../format/layout';
import { QUAT_IDENTITY_BITS, encodeQuat } from '../../math/quat';
import { Channel, ChannelRegistry } from '../../store/ChannelRegistry';
import { StaticLayers } from '../../store/StaticLayers';
import { WarnOnce } from '../../validate/WarnOnce';
import { BoneStage } from '../BoneStage';
import { DisplayStage } from '../DisplayStage';
import { FrameRepairs } from '../FrameRepairs';
import { RecorderStats } from '../RecorderStats';
import { StaticLayerEncoder } from '../StaticLayerEncoder';

/**
 * BoneStage, DisplayStage and StaticLayerEncoder called directly (issue 20, fifth pass): the words
 * each stages and writes, against values computed here from the layout, and each refusal with its
 * counter and warning. Each case names the mutants it kills.
 */

function deps() {
  const stats = new RecorderStats();
  const warnings: string[] = [];
  const warnOnce = new WarnOnce((m) => warnings.push(m));
  const repairs = new FrameRepairs(stats, warnOnce);
  return { stats, warnings, warnOnce, repairs };
}

/** Bone rotations: bone `b` turned by `0.1 · (b + 1)` around z. */
function rotations(n: number): number[] {
  const out: number[] = [];
  for (let b = 0; b < n; b++) out.push(0, 0, Math.sin(0.05 * (b + 1)), Math.cos(0.05 * (b + 1)));
  return out;
}

function offsets(n: number): number[] {
  const out: number[] = [];
  for (let b = 0; b < n; b++) out.push(b + 0.5, -b, 2 * b);
  return out;
}

/** The words BoneStage must write for a record of entity `k` with these bones. */
function boneWords(k: number, rot: number[], off: number[]): number[] {
  const c = rot.length / 4;
  const words = [(k | (c << BONE_INDEX_BITS)) >>> 0];
  for (let b = 0; b < c; b++) words.push(encodeQuat(rot[4 * b], rot[4 * b + 1], rot[4 * b + 2], rot[4 * b + 3]) >>> 0);
  const f = new Float32Array(off.map((v) => (Number.isFinite(Math.fround(v)) ? v : 0)));
  for (const w of new Uint32Array(f.buffer)) words.push(w);
  return words;
}

function written(stage: BoneStage, keptIndex: number[]): { words: number[]; end: number } {
  const u = new Uint32Array(stage.count + 4).fill(0xabcdef);
  const end = stage.write(u, 2, Int32Array.from(keptIndex));
  expect(u[0]).toBe(0xabcdef);
  expect(u[1]).toBe(0xabcdef);
  expect(u[end]).toBe(0xabcdef);
  return { words: Array.from(u.subarray(2, end)), end };
}

describe('BoneStage', () => {
  // Kills: add()'s header word (`index | c << BITS`, `|` → `&`), the rotation columns' indices
  // (`i * 4 + 1`... → `i * 4 - 1`, `i * 4` → `i / 4`), the offset loop bound (`c * 3` → `c / 3`,
  // `<` → `<=`), `this.count = at` removed, write()'s copy (`j < words`, `r += words`), renumbering.
  it('stages records word for word and writes them renumbered, skipping dropped entities', () => {
    const { stats, warnOnce, repairs, warnings } = deps();
    const stage = new BoneStage(1024, stats, warnOnce, repairs);
    stage.begin();
    const r0 = rotations(3);
    const o0 = offsets(3);
    const r1 = rotations(1);
    const o1 = [7, 8, 9];
    const r2 = rotations(2);
    const o2 = offsets(2);
    expect(stage.add(10, 0, 3, r0, o0)).toBe(false);
    expect(stage.add(11, 2, 1, r1, o1)).toBe(false);
    expect(stage.add(12, 5, 2, r2, o2)).toBe(false);
    expect(stage.count).toBe(13 + 5 + 9);
    // Entity 2 was dropped by the resolver: its record goes, the others are renumbered.
    const { words } = written(stage, [0, -1, -1, -1, -1, 1]);
    expect(words).toEqual([...boneWords(0, r0, o0), ...boneWords(1, r2, o2)]);
    expect(stats.bonesDropped).toBe(1);
    expect(stats.invalidBones).toBe(0);
    expect(warnings).toEqual([]);
    // All kept, at their own index.
    expect(written(stage, [0, 1, 2, 3, 4, 5]).words).toEqual([
      ...boneWords(0, r0, o0),
      ...boneWords(2, r1, o1),
      ...boneWords(5, r2, o2),
    ]);
    // begin() forgets the frame's records: write() writes nothing and returns its start.
    stage.begin();
    expect(stage.count).toBe(0);
    const u = new Uint32Array(4);
    expect(stage.write(u, 3, new Int32Array(6))).toBe(3);
  });

  // Kills: the repair path (`v - v === 0` → true/false, `fl[at++] = 0` removed, `bad++` removed,
  // `bad > 0` → `>=`), the return value and FrameRepairs.bones's call with the id.
  it('repairs bad offsets to 0 and bad rotations to the identity, and says so', () => {
    const { stats, warnOnce, repairs, warnings } = deps();
    const stage = new BoneStage(64, stats, warnOnce, repairs);
    const rot = [0, 0, 0, 0, ...rotations(1)]; // bone 0: a zero quaternion
    const off = [1, 2, 3, 4, 5, 6];
    expect(stage.add(33, 1, 2, rot, off)).toBe(true);
    const bad = [1, Number.NaN, 3, 1e39, 5, Number.NEGATIVE_INFINITY];
    expect(stage.add(34, 2, 2, rotations(2), bad)).toBe(true);
    const { words } = written(stage, [0, 0, 1]);
    const first = boneWords(0, rotations(2), off);
    first[1] = QUAT_IDENTITY_BITS >>> 0;
    first[2] = encodeQuat(...(rotations(1) as [number, number, number, number])) >>> 0;
    expect(words).toEqual([...first, ...boneWords(1, rotations(2), bad)]);
    expect(stats.invalidBones).toBe(2);
    expect(repairs.count).toBe(2);
    expect(warnings).toEqual([
      'rewindable: bones of entity 33 had a rotation that cannot be encoded (stored as the identity) or a non-finite offset (stored as 0)',
    ]);
  });

  // Kills: each refusal (`c !== count`, `c <= 0` → `< 0`, `c > MAX_BONES` → `>=`, the capacity test
  // `>` → `>=`, the array length tests `>=` → `>` and `c * 4`/`c * 3` arithmetic), the warning.
  it('drops a record with a bad count, past capacity or with short arrays; fits exactly at capacity', () => {
    const { stats, warnOnce, repairs, warnings } = deps();
    const stage = new BoneStage(1 + 4 * 3 + 1 + 4 * 2, stats, warnOnce, repairs); // 22 words
    const refused: Array<[number, number[], number[]]> = [
      [2.5, rotations(3), offsets(3)],
      [0, rotations(1), offsets(1)],
      [-1, rotations(1), offsets(1)],
      [Number.NaN, rotations(1), offsets(1)],
      [3, rotations(3).slice(1), offsets(3)], // one rotation value short
      [3, rotations(3), offsets(3).slice(1)], // one offset short
      [6, rotations(6), offsets(6)], // 25 words: past the 22
    ];
    for (const [count, rot, off] of refused) expect(stage.add(5, 0, count, rot, off), String(count)).toBe(false);
    expect(stage.count).toBe(0);
    expect(stats.bonesDropped).toBe(refused.length);
    expect(warnings).toEqual(['rewindable: bones of entity 5 dropped (count 2.5, capacity or array length)']);
    // 13 + 9 = 22 words: exactly the capacity.
    expect(stage.add(5, 0, 3, rotations(3), offsets(3))).toBe(false);
    expect(stage.add(6, 1, 2, rotations(2), offsets(2))).toBe(false);
    expect(stage.count).toBe(22);
    expect(stage.add(7, 2, 1, rotations(1), offsets(1))).toBe(false); // full now
    expect(stats.bonesDropped).toBe(refused.length + 1);
    expect(written(stage, [0, 1, 2]).words.length).toBe(22);
  });

  // Kills: `c > MAX_BONES` → `c >= MAX_BONES` (the largest count is accepted) and the header's count bits.
  it('accepts MAX_BONES bones and refuses one more', () => {
    const { stats, warnOnce, repairs } = deps();
    const stage = new BoneStage(1 + 4 * (MAX_BONES + 1), stats, warnOnce, repairs);
    expect(stage.add(1, 0, MAX_BONES + 1, rotations(MAX_BONES + 1), offsets(MAX_BONES + 1))).toBe(false);
    expect(stats.bonesDropped).toBe(1);
    const rot = rotations(MAX_BONES);
    const off = offsets(MAX_BONES);
    stage.add(1, 7, MAX_BONES, rot, off);
    expect(stats.bonesDropped).toBe(1);
    const { words } = written(stage, [0, 0, 0, 0, 0, 0, 0, 3]);
    expect(words).toEqual(boneWords(3, rot, off));
  });
});

function display(capacity = 8) {
  const d = deps();
  return { ...d, stage: new DisplayStage(capacity, d.stats, d.warnOnce, d.repairs) };
}

/** A display record as written: [entity index, visible, scaleX, scaleY, alpha code, texture]. */
function records(stage: DisplayStage, keptIndex: number[]): number[][] {
  const u = new Uint32Array(stage.count * DISPLAY_WORDS + 3).fill(0x5555);
  const f = new Float32Array(u.buffer);
  const end = stage.write(u, f, 1, Int32Array.from(keptIndex));
  expect(u[0]).toBe(0x5555);
  expect(u[end]).toBe(0x5555);
  const out: number[][] = [];
  for (let w = 1; w < end; w += DISPLAY_WORDS) {
    out.push([
      u[w] & (DISPLAY_VISIBLE - 1),
      (u[w] & DISPLAY_VISIBLE) !== 0 ? 1 : 0,
      f[w + 1],
      f[w + 2],
      u[w + 3] & 0xffff,
      u[w + 3] >>> 16,
    ]);
  }
  return out;
}

function put(stage: DisplayStage, entity: number, sx: number, sy: number, a: number, visible: boolean, tex: number) {
  const k = stage.slot(entity);
  stage.scaleX[k] = sx;
  stage.scaleY[k] = sy;
  stage.alpha[k] = a;
  stage.check(k, visible, tex);
  return k;
}

describe('DisplayStage', () => {
  // Kills: texture()'s cache, its refusals and messages, MAX_TEXTURES (`>=` → `>`).
  it('texture(): interns names, refuses bad ones and the 65,536th', () => {
    const { stage } = display();
    expect(stage.texture('coin')).toBe(0);
    expect(stage.texture('gem')).toBe(1);
    expect(stage.texture('coin')).toBe(0);
    expect(() => stage.texture('\udc00')).toThrow('rewindable: a texture name contains a lone surrogate');
    for (let i = 2; i < MAX_TEXTURES - 1; i++) stage.textures.push(`t${i}`);
    expect(stage.texture('last')).toBe(MAX_TEXTURES - 1);
    expect(() => stage.texture('one more')).toThrow(`rewindable: ${MAX_TEXTURES} texture names exist`);
    expect(stage.textures.length).toBe(MAX_TEXTURES);
  });

  // Kills: slot()'s append test (`index[c - 1] < entity` → `<=`, `c === 0` → false), the binary
  // search (`lo < hi`, `mid + 1`, `index[mid] < entity` → `<=`), the found record (`===` → `!==`),
  // the five copyWithin shifts, the allocation on first use only.
  it('slot(): keeps one record per entity in increasing order, out-of-order calls inserting or replacing', () => {
    const { stage, stats } = display(16);
    stage.begin();
    put(stage, 2, 2, 2, 0.2, true, -1);
    put(stage, 5, 5, 5, 0.5, false, -1);
    put(stage, 9, 9, 9, 0.9, true, -1);
    put(stage, 0, 10, 10, 1, true, -1); // before all
    put(stage, 7, 7, 7, 0.7, true, -1); // between 5 and 9
    put(stage, 5, 50, 51, 0.25, true, -1); // replaces 5's record
    put(stage, 3, 3, 3, 0.3, false, -1); // between 2 and 5
    put(stage, 12, 12, 12, 0, true, -1); // appended
    put(stage, 9, 90, 91, 0.75, false, -1); // replaces, found by the search
    const code = (a: number) => Math.round(Math.fround(a) * 65535);
    expect(
      records(
        stage,
        Array.from({ length: 16 }, (_, i) => i),
      ),
    ).toEqual([
      [0, 1, 10, 10, code(1), NO_TEXTURE],
      [2, 1, 2, 2, code(0.2), NO_TEXTURE],
      [3, 0, 3, 3, code(0.3), NO_TEXTURE],
      [5, 1, 50, 51, code(0.25), NO_TEXTURE],
      [7, 1, 7, 7, code(0.7), NO_TEXTURE],
      [9, 0, 90, 91, code(0.75), NO_TEXTURE],
      [12, 1, 12, 12, 0, NO_TEXTURE],
    ]);
    expect(stage.count).toBe(7);
    expect(stats.invalidDisplay).toBe(0);
    // A new frame reuses the columns (no new allocation: the same arrays).
    const index = stage.index;
    stage.begin();
    put(stage, 4, 1, 1, 1, true, -1);
    expect(stage.index).toBe(index);
    // Renumbered through keptIndex, a dropped entity's record skipped.
    put(stage, 6, 2, 2, 0.5, true, -1);
    put(stage, 8, 3, 3, 0.5, true, -1);
    const kept = Array.from({ length: 16 }, () => -1);
    kept[4] = 0;
    kept[8] = 1;
    expect(records(stage, kept)).toEqual([
      [0, 1, 1, 1, 65535, NO_TEXTURE],
      [1, 1, 3, 3, code(0.5), NO_TEXTURE],
    ]);
  });

  it('slot(): the search finds the first record at or after the entity among many', () => {
    const { stage } = display(64);
    stage.begin();
    for (let e = 0; e < 40; e += 2) put(stage, e, e, e, 1, true, -1);
    for (let e = 39; e >= 1; e -= 2) put(stage, e, e, e, 1, true, -1);
    for (let e = 0; e < 40; e++) expect(stage.slot(e), `entity ${e}`).toBe(e);
    expect(stage.count).toBe(40);
    expect(Array.from(stage.scaleX.subarray(0, 40))).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });

  // Kills: check()'s texture rule (`texture === -1`, `>= 0` → `>`, `< length` → `<=`, the integer
  // test, `& NO_TEXTURE`), visible (`=== false` → `!== false`, 0x10000), the early return's terms
  // and each repair (scale 1, alpha clamped, NaN 1), the counters and the warning.
  it('check(): keeps valid state, repairs each invalid value alone, and counts each record once', () => {
    const { stage, stats, repairs, warnings } = display(32);
    const gem = [stage.texture('a'), stage.texture('b'), stage.texture('c')][2];
    stage.begin();
    const cases: Array<[number, number, number, boolean, number, number[], boolean]> = [
      // sx, sy, alpha, visible, texture -> [visible, sx, sy, alpha, texture], repaired
      [2, 3, 0.5, true, -1, [1, 2, 3, 0.5, NO_TEXTURE], false],
      [2, 3, 0, false, 0, [0, 2, 3, 0, 0], false],
      [2, 3, 1, true, gem, [1, 2, 3, 1, gem], false],
      [-2, 0, 0.5, true, 1, [1, -2, 0, 0.5, 1], false],
      [Number.NaN, 3, 0.5, true, 1, [1, 1, 3, 0.5, 1], true],
      [2, Number.POSITIVE_INFINITY, 0.5, true, 1, [1, 2, 1, 0.5, 1], true],
      [2, 3, 1.5, true, 1, [1, 2, 3, 1, 1], true],
      [2, 3, -0.5, true, 1, [1, 2, 3, 0, 1], true],
      [2, 3, Number.NaN, true, 1, [1, 2, 3, 1, 1], true],
      [Number.NaN, 3, 0, true, 1, [1, 1, 3, 0, 1], true], // alpha 0 kept when another value is repaired
      [2, 3, 0.5, true, 3, [1, 2, 3, 0.5, NO_TEXTURE], true], // one past the last texture
      [2, 3, 0.5, true, -2, [1, 2, 3, 0.5, NO_TEXTURE], true],
      [2, 3, 0.5, false, 1.5, [0, 2, 3, 0.5, NO_TEXTURE], true],
      [2, 3, 0.5, true, Number.NaN, [1, 2, 3, 0.5, NO_TEXTURE], true],
    ];
    cases.forEach(([sx, sy, a, visible, tex], i) => put(stage, i, sx, sy, a, visible, tex));
    const all = Array.from({ length: 32 }, (_, i) => i);
    const got = records(stage, all);
    cases.forEach(([, , , , , [vis, sx, sy, a, tex]], i) => {
      expect(got[i], `case ${i}`).toEqual([i, vis, sx, sy, Math.round(Math.fround(a) * 65535), tex]);
    });
    const repaired = cases.filter((c) => c[6]).length;
    expect(stats.invalidDisplay).toBe(repaired);
    expect(repairs.count).toBe(repaired);
    expect(warnings).toEqual([
      'rewindable: display state had a non-finite scale (1 stored), an alpha outside [0, 1] (clamped; NaN stored as 1), or an unknown texture index (none stored)',
    ]);
  });

  // Kills: write()'s alpha code (`Math.round(a * 65535)`, `*` → `/`), the texture shift (`<< 16`).
  it('write(): alpha as 16 bits rounded, the texture in the high half', () => {
    const { stage } = display(4);
    const t = [stage.texture('x'), stage.texture('y')];
    stage.begin();
    put(stage, 0, 1, 1, 1 / 3, true, t[1]);
    put(stage, 1, 1, 1, 0.00001, true, t[0]);
    const u = new Uint32Array(8);
    const f = new Float32Array(u.buffer);
    expect(stage.write(u, f, 0, Int32Array.from([0, 1]))).toBe(8);
    expect(u[3]).toBe((Math.round(Math.fround(1 / 3) * 65535) | (1 << 16)) >>> 0);
    expect(u[7]).toBe(Math.round(Math.fround(0.00001) * 65535));
  });

  // Kills: drop()'s counter and warning (the id in it).
  it('drop(): counts and warns once with the id', () => {
    const { stage, stats, warnings } = display();
    stage.drop(42);
    stage.drop(-1);
    expect(stats.displayDropped).toBe(2);
    expect(warnings).toEqual(['rewindable: display(42) must follow entity(42) in an open frame; dropped']);
  });
});

describe('StaticLayerEncoder', () => {
  // Kills: the builder's reuse (`builder === null` → true: a new one each time still works, so the
  // content is what is pinned), `b.reset()` removed (the second layer would hold the first's
  // records), `flushText` removed (texts lost), the slice's length, markUsed, primCount.
  it('encodes each layer alone, texts included, and marks the channels drawn on as used', () => {
    const channels = new ChannelRegistry(8);
    const stats = new RecorderStats();
    const warnings: string[] = [];
    const layers = new StaticLayers(new StaticLayerEncoder(channels, stats, new WarnOnce((m) => warnings.push(m))));
    const custom = Channel.AI;
    expect(channels.usedMask).toBe(0); // built-ins are not in use until drawn on
    const a = layers.set('a', (draw) => {
      draw.line(custom, 0, 0, 0, 10, 0, 0, 0xff0000);
      draw.point(custom, 1, 2, 3, 4, 0x00ff00);
      draw.text(custom, 5, 5, 0, 'hello', 0xffffff);
    });
    const b = layers.set('b', (draw) => {
      draw.point(Channel.PHYSICS, 7, 8, 9, 1, 0x0000ff);
    });
    expect(a.primCount).toBe(3);
    expect(b.primCount).toBe(1);
    expect(channels.usedMask).toBe((1 << custom) | (1 << Channel.PHYSICS));
    // Layer b holds its point alone: the same words as encoding it first.
    const fresh = new StaticLayers(new StaticLayerEncoder(new ChannelRegistry(8), stats, new WarnOnce(() => {})));
    const alone = fresh.set('b', (draw) => draw.point(Channel.PHYSICS, 7, 8, 9, 1, 0x0000ff));
    expect(Array.from(b.words)).toEqual(Array.from(alone.words));
    // Layer a's text is in its words (flushed at the end of the build): UTF-8 "hello".
    const bytes = new Uint8Array(a.words.buffer, a.words.byteOffset, a.words.byteLength);
    expect(new TextDecoder().decode(bytes)).toContain('hello');
    // Static layers are not budgeted (the channels' budget is 8): 5,000 points stay.
    const big = layers.set('big', (draw) => {
      for (let i = 0; i < 5000; i++) draw.point(Channel.PHYSICS, i, 0, 0, 1, 0xffffff);
    });
    expect(big.primCount).toBe(5000);
    expect(stats.primitivesOverBudget).toBe(0);
    expect(warnings).toEqual([]);
  });

  // Kills: the `finally` block emptied (the builder stays open, its staged text not flushed): after
  // a build that throws, the next layer is encoded as if alone.
  it('a build that throws leaves the encoder ready for the next layer', () => {
    const channels = new ChannelRegistry(8);
    const stats = new RecorderStats();
    const encoder = new StaticLayerEncoder(channels, stats, new WarnOnce(() => {}));
    expect(() =>
      encoder.encode((draw) => {
        draw.text(Channel.PHYSICS, 0, 0, 0, 'lost', 0xffffff);
        throw new Error('game bug');
      }),
    ).toThrow('game bug');
    const next = encoder.encode((draw) => draw.point(Channel.PHYSICS, 1, 1, 1, 1, 0xffffff));
    const alone = new StaticLayerEncoder(new ChannelRegistry(8), stats, new WarnOnce(() => {})).encode((draw) =>
      draw.point(Channel.PHYSICS, 1, 1, 1, 1, 0xffffff),
    );
    expect(next.primCount).toBe(1);
    expect(Array.from(next.words)).toEqual(Array.from(alone.words));
    // Outside encode() the builder is closed: drawing through a kept reference records nothing.
    let kept: Parameters<Parameters<StaticLayerEncoder['encode']>[0]>[0] | null = null;
    encoder.encode((draw) => {
      kept = draw;
    });
    (kept as unknown as { point: (...a: number[]) => void }).point(Channel.PHYSICS, 1, 1, 1, 1, 0xffffff);
    expect(encoder.encode(() => {}).primCount).toBe(0);
  });
});
