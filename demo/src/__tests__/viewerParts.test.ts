import { describe, expect, it } from 'vitest';
import { hashBytes } from '../hook/canvasChecksum';
import { KINDS } from '../game/types';
import {
  BALL_COLORS,
  PLAYER_COLOR,
  SQUAD_COLORS,
  colorFor,
  isDemoKind,
  moverVariant,
  variantFor,
} from '../view/kindLook';
import { KindRegistry, hslToRgb, kindColor } from '../view/KindRegistry';

describe('KindRegistry (kind → factory)', () => {
  it('makes registered kinds with their own factory, given the kind, id and label', () => {
    const calls: string[] = [];
    const r = new KindRegistry<string>().registerAll(['ball', 'crate'], (kind, id, label) => {
      calls.push(`${kind}/${id}/${label}`);
      return `${kind}#${id}`;
    });
    expect(r.create('ball', 3, 'ball')).toBe('ball#3');
    expect(r.create('crate', 9, undefined)).toBe('crate#9');
    expect(calls).toEqual(['ball/3/ball', 'crate/9/undefined']);
    expect(r.kinds()).toEqual(['ball', 'crate']);
    expect(r.unknownKinds()).toEqual([]);
  });

  it('uses the fallback for unknown kinds and remembers them; without a fallback returns null', () => {
    const r = new KindRegistry<string>().register('ball', () => 'ball');
    expect(r.create('spaceship', 1, 'enemy')).toBeNull();
    r.fallback((kind) => `shape:${kind}`);
    expect(r.create('spaceship', 2, undefined)).toBe('shape:spaceship');
    expect(r.create('asteroid', 3, undefined)).toBe('shape:asteroid');
    expect(r.create('spaceship', 4, undefined)).toBe('shape:spaceship');
    expect(r.unknownKinds()).toEqual(['spaceship', 'asteroid']);
    expect(r.has('spaceship')).toBe(false);
  });

  it('returns null when a factory cannot make the kind, and replaces a factory registered again', () => {
    const r = new KindRegistry<string>().register('ball', () => undefined).fallback(() => 'fallback');
    expect(r.create('ball', 1, undefined)).toBeNull(); // its own factory said no: not the fallback
    r.register('ball', () => 'new ball');
    expect(r.create('ball', 1, undefined)).toBe('new ball');
    expect(r.kinds()).toEqual(['ball']);
  });

  it('refuses an empty kind name, and lets a throwing factory throw (the overlay reports it)', () => {
    const r = new KindRegistry<string>();
    expect(() => r.register('', () => 'x')).toThrow(TypeError);
    r.register('bad', () => {
      throw new Error('no texture');
    });
    expect(() => r.create('bad', 1, undefined)).toThrow('no texture');
  });
});

describe('debug-shape colours', () => {
  it('converts HSL to RGB', () => {
    expect(hslToRgb(0, 1, 0.5)).toBe(0xff0000);
    expect(hslToRgb(1 / 3, 1, 0.5)).toBe(0x00ff00);
    expect(hslToRgb(2 / 3, 1, 0.5)).toBe(0x0000ff);
    expect(hslToRgb(0, 0, 1)).toBe(0xffffff);
    expect(hslToRgb(0.5, 0, 0)).toBe(0x000000);
  });

  it('gives each kind name a stable, bright colour, different for different names', () => {
    const names = ['spaceship', 'asteroid', 'enemy', 'bullet', 'door', 'turret', 'npc', 'vehicle'];
    const colours = names.map(kindColor);
    expect(names.map(kindColor)).toEqual(colours);
    expect(new Set(colours).size).toBe(names.length);
    for (const c of colours) {
      expect(c).toBeGreaterThanOrEqual(0);
      expect(c).toBeLessThanOrEqual(0xffffff);
      const brightest = Math.max((c >> 16) & 255, (c >> 8) & 255, c & 255);
      expect(brightest).toBeGreaterThan(150); // readable on the dark background
    }
  });
});

describe('how a recorded demo kind looks (kindLook)', () => {
  it('knows the demo kinds and nothing else', () => {
    for (const k of KINDS) expect(isDemoKind(k)).toBe(true);
    expect(isDemoKind('spaceship')).toBe(false);
    expect(isDemoKind('')).toBe(false);
  });

  it('picks colours from the recorded label and id as the game does', () => {
    expect(colorFor('agent', 'agent C2', 5)).toBe(SQUAD_COLORS[2]);
    expect(colorFor('agent', 'agent A1', 5)).toBe(SQUAD_COLORS[0]);
    expect(colorFor('agent', 'someone', 5)).toBe(SQUAD_COLORS[0]);
    expect(colorFor('player', 'Player', 1)).toBe(PLAYER_COLOR);
    expect(colorFor('ball', 'ball', 7)).toBe(BALL_COLORS[7 % BALL_COLORS.length]);
    expect(colorFor('ball', 'ball', -3)).toBe(BALL_COLORS[2]);
  });

  it('picks art variants and mover colours from the label', () => {
    expect(variantFor('projectile', 'bullet')).toBe('bullet');
    expect(variantFor('projectile', 'bolt')).toBe('bolt');
    expect(variantFor('projectile', '')).toBe('bolt');
    expect(variantFor('pickup', 'energy')).toBe('energy');
    expect(variantFor('pickup', 'whatever')).toBe('health');
    expect(variantFor('crate', 'crate')).toBe('');
    expect(moverVariant('mover 3', 10)).toBe(3);
    expect(moverVariant('mover', 10)).toBe(10);
  });
});

describe('canvas checksum hash', () => {
  it('is stable for equal bytes and changes when any byte changes', () => {
    const a = new Uint8Array(64 * 64 * 4);
    for (let i = 0; i < a.length; i++) a[i] = (i * 31) & 255;
    const h = hashBytes(a);
    expect(hashBytes(a.slice())).toBe(h);
    expect(h).toBeGreaterThanOrEqual(0);
    expect(Number.isInteger(h)).toBe(true);
    for (const at of [0, 1, 2, 3, 4097, a.length - 1]) {
      const b = a.slice();
      b[at] ^= 1;
      expect(hashBytes(b)).not.toBe(h);
    }
  });

  it('hashes unaligned views and tail bytes the same as copies', () => {
    const buf = new Uint8Array(103);
    for (let i = 0; i < buf.length; i++) buf[i] = (i * 7 + 3) & 255;
    const view = buf.subarray(1, 102); // unaligned, 101 bytes: 25 words and a tail of 1
    expect(hashBytes(view)).toBe(hashBytes(view.slice()));
    const shorter = view.slice(0, 100);
    expect(hashBytes(shorter)).not.toBe(hashBytes(view));
  });
});
