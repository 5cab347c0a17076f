/**
 * How each demo kind looks, from what a recording holds (kind, label, id): colours, sizes and art
 * variants. Pure data and functions (no pixi), shared by the game view, the overlay's re-created
 * entities and the standalone viewer.
 */
import type { Kind } from '../game/types';
import { KINDS } from '../game/types';

/** The player's body colour. */
export const PLAYER_COLOR = 0x35d0ff;
/** Agent body colour per squad (A, B, C, D). */
export const SQUAD_COLORS = [0xff8c42, 0xff5d8f, 0xf2c14e, 0xb48cff];

/** Ball colours, picked by entity id (so a re-created ball has the colour it had). */
export const BALL_COLORS = [0xe84a5f, 0x2ec4b6, 0xffbe0b, 0x8338ec, 0x3a86ff];
/** Crowd mover colours (one texture each). */
export const MOVER_COLORS = [0x5d6b80, 0x75668a, 0x5f8270, 0x86755f];

/** Whether `kind` is one of the demo's entity kinds. */
export function isDemoKind(kind: string): kind is Kind {
  return (KINDS as readonly string[]).includes(kind);
}

/** Radius the demo draws a kind at when nothing more is known (re-created entities). */
export function defaultRadius(k: Kind): number {
  return k === 'ball' ? 11 : k === 'crate' ? 13 : k === 'projectile' ? 3 : k === 'pickup' ? 7 : k === 'mover' ? 5 : 11;
}

/**
 * Body colour of a kind from the recorded label and id: agents' labels start with their squad
 * letter ('agent C2'), balls are coloured by id.
 */
export function colorFor(k: Kind, label: string, id: number): number {
  if (k === 'agent') {
    const squad = /^agent ([A-D])/.exec(label);
    return squad !== null ? SQUAD_COLORS[squad[1].charCodeAt(0) - 65] : SQUAD_COLORS[0];
  }
  if (k === 'player') return PLAYER_COLOR;
  if (k === 'ball') return BALL_COLORS[((id % BALL_COLORS.length) + BALL_COLORS.length) % BALL_COLORS.length];
  return 0xffffff;
}

/** Art variant of a kind from the recorded label: projectiles 'bolt'/'bullet', pickups 'health'/'energy'. */
export function variantFor(k: Kind, label: string): string {
  if (k === 'projectile') return label === 'bullet' ? 'bullet' : 'bolt';
  if (k === 'pickup') return label === 'energy' ? 'energy' : 'health';
  return '';
}

/** Colour variant of a crowd mover from its recorded label ('mover 2'), else from its id. */
export function moverVariant(label: string, id: number): number {
  const m = /^mover (\d+)$/.exec(label);
  return m !== null ? Number(m[1]) : id;
}
