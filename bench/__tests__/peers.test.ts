import { describe, expect, it } from 'vitest';
import type { BenchContext } from '../lib/BenchSection';
import { percentile, median } from '../lib/stats';
import { quatAngleDeg } from '../lib/quatError';
import { fixed, formatTable, grouped, ratio } from '../lib/table';
import { verifyFrame } from '../lib/verifyFrame';
import { DecodedFrame } from '../peers/DecodedFrame';
import { SnapshotRing } from '../peers/SnapshotRing';
import { RECORD_PEERS, runPeer, selectPeers, tableFor } from '../sections/record';
import { Workload } from '../Workload';

const MAX_FRAMES = 12;

const context: BenchContext = {
  log: () => undefined,
  collectGarbage: () => undefined,
  quick: true,
  peers: [],
  outDir: '',
  probe: () => 1.5,
  settle: async () => 1.5,
};

describe('every record peer', () => {
  for (const factory of RECORD_PEERS) {
    it(`${factory.name}: keeps exactly the last ${MAX_FRAMES} frames and gives each one back`, () => {
      const world = new Workload({ entities: 64, churnPerFrame: 3, seed: 99 });
      const peer = factory.create(MAX_FRAMES, world);
      expect(peer.name).toBe(factory.name);
      expect(peer.role).toBe(factory.role);
      const inputs = new Map<number, DecodedFrame>();
      const got = new DecodedFrame();
      for (let f = 0; f < 40; f++) {
        world.step();
        peer.prepare(world);
        peer.record(world);
        const input = new DecodedFrame();
        input.copyFrom(world);
        inputs.set(world.frame, input);
        expect(peer.framesHeld).toBe(Math.min(f + 1, MAX_FRAMES));
      }
      let maxDeg = 0;
      for (let f = 0; f < 40; f++) {
        const held = peer.decode(f, got);
        expect(held).toBe(f >= 40 - MAX_FRAMES);
        if (held) maxDeg = Math.max(maxDeg, verifyFrame(peer.name, f, inputs.get(f) as DecodedFrame, got));
      }
      expect(peer.decode(40, got)).toBe(false);
      if (factory.role === 'library') expect(maxDeg).toBe(0);
      else {
        expect(maxDeg).toBeGreaterThan(0);
        expect(maxDeg).toBeLessThan(0.17);
      }
      const bytes = peer.storedBytes();
      if (Number.isFinite(bytes)) expect(bytes).toBeGreaterThanOrEqual(MAX_FRAMES * 64 * 20);
      else expect(['structuredClone', 'geckos Vault']).toContain(peer.name);
      peer.dispose();
      expect(peer.decode(39, got)).toBe(false);
    });
  }

  it('rewindable (every variant) and the bound store the same bytes: 20 per entity plus an 88-byte header per frame', () => {
    const sizes = RECORD_PEERS.filter((p) => p.role !== 'library').map((factory) => {
      const world = new Workload({ entities: 100, seed: 5 });
      const peer = factory.create(MAX_FRAMES, world);
      for (let f = 0; f < 30; f++) {
        world.step();
        peer.prepare(world);
        peer.record(world);
      }
      return peer.storedBytes();
    });
    expect(sizes).toHaveLength(4); // rewindable, its entity() and JS variants, the bound
    for (const size of sizes) expect(size).toBe(MAX_FRAMES * (88 + 100 * 20));
  });
});

describe('verifyFrame', () => {
  it('measures rotation error and refuses any other difference', () => {
    const world = new Workload({ entities: 10, seed: 1 });
    world.step();
    const want = new DecodedFrame();
    want.copyFrom(world);
    const got = new DecodedFrame();
    got.copyFrom(world);
    expect(verifyFrame('p', 0, want, got)).toBe(0);
    // -q is the same rotation.
    got.qx[3] = -got.qx[3];
    got.qy[3] = -got.qy[3];
    got.qz[3] = -got.qz[3];
    got.qw[3] = -got.qw[3];
    expect(verifyFrame('p', 0, want, got)).toBeLessThan(1e-6);
    got.copyFrom(world);
    got.x[2] = Math.fround(got.x[2] + 1);
    expect(() => verifyFrame('p', 0, want, got)).toThrow(/position/);
    got.copyFrom(world);
    got.ids[0] = got.ids[0] + 1;
    expect(() => verifyFrame('p', 0, want, got)).toThrow(/id/);
    got.copyFrom(world);
    got.flags[1] ^= 1;
    expect(() => verifyFrame('p', 0, want, got)).toThrow(/flags/);
    got.resize(9);
    expect(() => verifyFrame('p', 0, want, got)).toThrow(/9 entities/);
  });
});

describe('bench helpers', () => {
  it('quatAngleDeg: relative rotation angle, sign- and scale-insensitive', () => {
    const h = 0.25; // a 0.5 rad rotation about z
    expect(quatAngleDeg(0, 0, 0, 1, 0, 0, Math.sin(h), Math.cos(h))).toBeCloseTo(0.5 * (180 / Math.PI), 9);
    expect(quatAngleDeg(0, 0, 0, 1, 0, 0, 0, -1)).toBe(0);
    expect(quatAngleDeg(0, 0, 0, 2, 0, 0, 0, 1)).toBe(0);
    expect(quatAngleDeg(1, 0, 0, 0, 0, 0, 0, 1)).toBeCloseTo(180, 9);
    // Tiny angles keep their digits.
    const e = 1e-7;
    expect(quatAngleDeg(0, 0, 0, 1, 0, 0, Math.sin(e / 2), Math.cos(e / 2))).toBeCloseTo(e * (180 / Math.PI), 15);
    expect(quatAngleDeg(0, 0, 0, 0, 0, 0, 0, 1)).toBeNaN();
    // A quaternion compared with itself reads exactly 0 (what a lossless peer must report).
    const world = new Workload({ entities: 500, seed: 2 });
    world.step();
    let worst = 0;
    for (let i = 0; i < world.count; i++) {
      const { qx, qy, qz, qw } = world;
      worst = Math.max(worst, quatAngleDeg(qx[i], qy[i], qz[i], qw[i], qx[i], qy[i], qz[i], qw[i]));
    }
    expect(worst).toBe(0);
  });

  it('percentile and median by nearest rank, over the first n samples', () => {
    const s = new Float64Array([9, 1, 5, 3, 7, 1000]);
    expect(median(s, 5)).toBe(5);
    expect(percentile(s, 5, 100)).toBe(9);
    expect(percentile(s, 5, 0)).toBe(1);
    expect(percentile(s, 6, 99)).toBe(1000);
    expect(percentile(s, 0, 50)).toBeNaN();
    expect(Array.from(s)).toEqual([9, 1, 5, 3, 7, 1000]);
  });

  it('table formatting', () => {
    const lines = formatTable(
      [
        { header: 'peer', align: 'left' },
        { header: 'ns', align: 'right' },
      ],
      [
        ['json', '812.0'],
        ['rw', '9.5'],
      ],
    );
    expect(lines).toEqual(['peer     ns', '----  -----', 'json  812.0', 'rw      9.5']);
    expect(fixed(NaN, 2)).toBe('—');
    expect(ratio(41.23)).toBe('41.2×');
    expect(ratio(2.345)).toBe('2.35×');
    expect(ratio(123.4)).toBe('123×');
    expect(grouped(10000)).toBe('10,000');
  });

  it('SnapshotRing keeps the last maxFrames snapshots and their byte total', () => {
    const ring = new SnapshotRing<string>(3);
    for (let f = 0; f < 5; f++) ring.put(f, `s${f}`, f + 1);
    expect(ring.framesHeld).toBe(3);
    expect(ring.storedBytes).toBe(3 + 4 + 5);
    expect(ring.get(1)).toBeUndefined();
    expect(ring.get(4)).toBe('s4');
    expect(ring.get(-1)).toBeUndefined();
    ring.clear();
    expect(ring.framesHeld).toBe(0);
    expect(ring.get(4)).toBeUndefined();
    expect(() => new SnapshotRing<string>(0)).toThrow(RangeError);
  });
});

describe('the record section', () => {
  it('selects peers by name, rewindable always first', () => {
    expect(selectPeers([]).map((p) => p.name)).toEqual(RECORD_PEERS.map((p) => p.name));
    expect(selectPeers(['none']).map((p) => p.name)).toEqual(['rewindable']);
    expect(selectPeers(['BITECS SoA', 'msgpackr']).map((p) => p.name)).toEqual([
      'rewindable',
      'msgpackr',
      'bitecs SoA',
    ]);
    expect(() => selectPeers(['protobuf'])).toThrow(/unknown peer "protobuf"/);
  });

  it('runs a peer through fill, timed frames and checks, and reports sizes and errors', async () => {
    const rewindable = RECORD_PEERS[0];
    const json = RECORD_PEERS.find((p) => p.name === 'JSON.stringify');
    if (json === undefined) throw new Error('no JSON peer');
    const plan = { entities: 50, warmFrames: 10, timedFrames: 30 };
    const a = await runPeer(rewindable, plan, context, 16);
    const b = await runPeer(json, plan, context, 16);
    expect(a.framesHeld).toBe(16);
    expect(a.storedBytes).toBe(16 * (88 + 50 * 20));
    expect(a.bytesPerEntityFrame).toBeCloseTo((88 + 50 * 20) / 50, 9);
    expect(a.maxQuatErrorDeg).toBeGreaterThan(0);
    expect(a.maxQuatErrorDeg).toBeLessThan(0.3);
    expect(a.rotationsChecked).toBe(16 * 50 + 3 * 50);
    expect(a.medianNs).toBeGreaterThan(0);
    expect(a.p99Ns).toBeGreaterThanOrEqual(a.medianNs);
    expect(a.maxNs).toBeGreaterThanOrEqual(a.p99Ns);
    expect(b.maxQuatErrorDeg).toBe(0);
    expect(b.bytesFromHeap).toBe(false);
    const lines = tableFor([a, b]);
    expect(lines).toHaveLength(4);
    expect(lines[2]).toMatch(/^rewindable .* 1\.00× .* 1\.00×/);
    expect(lines[3]).toMatch(/^JSON\.stringify/);
  });
});
