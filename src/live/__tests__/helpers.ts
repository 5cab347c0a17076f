import { Channel } from '../../core/store/ChannelRegistry';
import { HANDLE_MASK, HEADER_WORDS, H_ENTITY_COUNT, H_TOTAL_WORDS } from '../../core/format/layout';
import type { FrameReader } from '../../core/read/FrameReader';
import { Recorder } from '../../core/record/Recorder';
import type { RecorderOptions } from '../../core/record/RecorderOptions';
import { rng } from '../../../tests/helpers/random';
import type { LiveTransport } from '../LiveTransport';

/**
 * A game for live tests: entities with kinds and labels that despawn and respawn (so the game's
 * small ring recycles handles), bones, primitives on a custom channel, texts, events, a camera, a
 * static layer; `step()` records one frame.
 */
export class TestGame {
  public readonly recorder: Recorder;
  private readonly ids: number[] = [];
  private nextId = 100;
  private frame = 0;
  private readonly random: () => number;
  private readonly rot = new Float32Array(3 * 4);
  private readonly off = new Float32Array(3 * 3);

  public constructor(entities: number, seed: number, options: Partial<RecorderOptions> = {}) {
    this.random = rng(seed);
    this.recorder = new Recorder({ maxFrames: 32, arenaBytes: 256 * 1024, onWarning: () => {}, ...options });
    const r = this.recorder;
    r.channels.register('network', { color: 0x44ccff, budget: 40 });
    r.describeSkeleton('humanoid', [-1, 0, 1]);
    r.eventKind('spawn');
    r.staticLayers.set('grid', (d) => d.aabb(Channel.AI, 0, 0, 0, 30, 30, 0, 0x335533));
    for (let i = 0; i < entities; i++) this.ids.push(this.nextId++);
  }

  public get frames(): number {
    return this.frame;
  }

  /** Records one frame. */
  public step(): void {
    const r = this.recorder;
    const f = this.frame++;
    r.beginFrame(f / 60, 1 / 60);
    r.camera(f, -f, 0, 0, 0, 0, 1, 1 + (f % 7) / 10);
    for (let i = 0; i < this.ids.length; i++) {
      if (this.random() < 0.02) {
        r.despawn(this.ids[i]);
        r.event('spawn', this.ids[i], 1, 2, 3, f);
        if (this.random() < 0.5) this.ids[i] = this.nextId++;
      }
      const id = this.ids[i];
      r.describe(id, ['humanoid', 'crate', 'bird'][id % 3], id % 4 === 0 ? undefined : `unit ${id} é`);
      r.entity(id, id + f * 0.5, f - id, 0, 0, 0, Math.sin(f / 9 + id), Math.cos(f / 9 + id), (id + f) & 0x3f);
      if (id % 3 === 0) {
        for (let b = 0; b < 3; b++) {
          this.rot[b * 4 + 2] = Math.sin(f / 20 + b);
          this.rot[b * 4 + 3] = Math.cos(f / 20 + b);
          this.off[b * 3] = b;
        }
        r.bones(id, 3, this.rot, this.off);
      }
      if (i % 5 === 0) r.draw.sphere(Channel.AI, id, f, 0, 4, 0xffcc00);
    }
    r.draw.text(1, 5, 5, 0, `frame ${f}`, 0xffffff);
    r.endFrame();
  }
}

/**
 * A frame as the game saw it, independent of handles: every word, with each entity word replaced
 * by its life's id, spawn frame, kind, label and display flags. Equal fingerprints mean the same
 * frame, whoever numbered the lives.
 */
export function frameFingerprint(reader: FrameReader, frame: number): string {
  const ring = reader.ring;
  const at = ring.offsetOf(frame);
  if (at < 0) return 'missing';
  const u = ring.u32;
  const words = u[at + H_TOTAL_WORDS];
  const n = u[at + H_ENTITY_COUNT];
  const t = reader.entities;
  const parts: string[] = [];
  for (let i = 0; i < words; i++) {
    const w = u[at + i];
    if (i >= HEADER_WORDS && i < HEADER_WORDS + n) {
      const h = w & HANDLE_MASK;
      const kind = t.kindOf[h] >= 0 ? t.kinds[t.kindOf[h]] : '-';
      parts.push(`[${t.ids[h]}@${t.spawnFrames[h]} ${kind} ${t.labels[h] ?? '-'} ${w >>> 24}]`);
    } else {
      parts.push(String(w));
    }
  }
  return parts.join(' ');
}

/** A transport that hands each message to `deliver` at once (a copy, as a real one would). */
export class LoopbackTransport implements LiveTransport {
  public onMessage: ((bytes: Uint8Array) => void) | null = null;
  public onOpen: (() => void) | null = null;
  public onClose: ((reason: string) => void) | null = null;
  public isOpen = true;
  public bufferedAmount = 0;
  public readonly sent: Uint8Array[] = [];

  public constructor(
    private readonly deliver: ((bytes: Uint8Array) => void) | null,
    private readonly keep = false,
  ) {}

  public send(bytes: Uint8Array): void {
    const copy = bytes.slice();
    if (this.keep) this.sent.push(copy);
    this.deliver?.(copy);
  }

  public close(): void {
    this.isOpen = false;
  }
}
