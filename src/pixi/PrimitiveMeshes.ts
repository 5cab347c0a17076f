import { Buffer, BufferUsage, type Container, Geometry, GlProgram, Mesh, Shader } from 'pixi.js';
import {
  PRIM_AABB,
  PRIM_ARROW,
  PRIM_FLOATS,
  PRIM_LINE,
  PRIM_POINT,
  PRIM_SPHERE,
  PRIM_TEXT,
} from '../core/format/layout';
import type { PrimitiveBuffer } from '../core/read/buffers';

/** Most channels (one bit each in a mask). */
const CHANNELS = 32;
/** Segments of a circle up to `BIG_RADIUS` (at most 0.05 world units from the true circle there). */
const SMALL_CIRCLE_SEGMENTS = 64;
/** Segments of larger circles (0.08 world units from the true circle at radius 1,000). */
const BIG_CIRCLE_SEGMENTS = 256;
const BIG_RADIUS = 40;

const VERTEX = `
in vec2 aPosition;
in vec4 aColor;
out vec4 vColor;
uniform mat3 uProjectionMatrix;
uniform mat3 uWorldTransformMatrix;
uniform vec4 uWorldColorAlpha;
uniform mat3 uTransformMatrix;
uniform vec4 uColor;
void main() {
  mat3 mvp = uProjectionMatrix * uWorldTransformMatrix * uTransformMatrix;
  gl_Position = vec4((mvp * vec3(aPosition, 1.0)).xy, 0.0, 1.0);
  vColor = vec4(aColor.rgb * aColor.a, aColor.a) * uColor * uWorldColorAlpha;
}
`;
/** Circles: one unit circle instanced, each instance a centre, a radius and a colour. */
const CIRCLE_VERTEX = `
in vec2 aUnit;
in vec3 aCircle;
in vec4 aColor;
out vec4 vColor;
uniform mat3 uProjectionMatrix;
uniform mat3 uWorldTransformMatrix;
uniform vec4 uWorldColorAlpha;
uniform mat3 uTransformMatrix;
uniform vec4 uColor;
void main() {
  mat3 mvp = uProjectionMatrix * uWorldTransformMatrix * uTransformMatrix;
  gl_Position = vec4((mvp * vec3(aCircle.xy + aUnit * aCircle.z, 1.0)).xy, 0.0, 1.0);
  vColor = vec4(aColor.rgb * aColor.a, aColor.a) * uColor * uWorldColorAlpha;
}
`;
const FRAGMENT = `
in vec4 vColor;
out vec4 finalColor;
void main() {
  finalColor = vColor;
}
`;

/**
 * One mesh of one channel: a vertex buffer (x, y), a colour buffer (one 0xAABBGGRR word per vertex)
 * and an index buffer, all kept across frames and refilled in place; `indexCount` says how much of
 * them the frame uses.
 */
class MeshBatch {
  public pos = new Float32Array(256);
  public col = new Int32Array(128);
  public idx = new Uint32Array(256);
  public vertices = 0;
  public indices = 0;
  /** Indices uploaded by the last `commit` (a batch emptied once is not re-uploaded). */
  private uploaded = 0;
  private readonly posBuffer: Buffer;
  private readonly colBuffer: Buffer;
  private readonly idxBuffer: Buffer;
  private readonly geometry: Geometry;
  public readonly mesh: Mesh<Geometry, Shader>;

  public constructor(shader: Shader, topology: 'line-list' | 'triangle-list', label: string) {
    this.posBuffer = new Buffer({ data: this.pos, usage: BufferUsage.VERTEX | BufferUsage.COPY_DST });
    this.colBuffer = new Buffer({ data: this.col, usage: BufferUsage.VERTEX | BufferUsage.COPY_DST });
    this.idxBuffer = new Buffer({ data: this.idx, usage: BufferUsage.INDEX | BufferUsage.COPY_DST });
    this.geometry = new Geometry({
      attributes: {
        aPosition: { buffer: this.posBuffer, format: 'float32x2' },
        aColor: { buffer: this.colBuffer, format: 'unorm8x4' },
      },
      indexBuffer: this.idxBuffer,
      topology,
    });
    this.mesh = new Mesh({ geometry: this.geometry, shader });
    this.mesh.label = label;
    this.mesh.visible = false;
  }

  /** Makes room for `v` more vertices and `i` more indices (grows by doubling: no allocation once large enough). */
  public reserve(v: number, i: number): void {
    if (this.vertices + v > this.col.length) {
      const cap = Math.max(this.vertices + v, this.col.length * 2);
      const pos = new Float32Array(cap * 2);
      pos.set(this.pos.subarray(0, this.vertices * 2));
      const col = new Int32Array(cap);
      col.set(this.col.subarray(0, this.vertices));
      this.pos = pos;
      this.col = col;
    }
    if (this.indices + i > this.idx.length) {
      const idx = new Uint32Array(Math.max(this.indices + i, this.idx.length * 2));
      idx.set(this.idx.subarray(0, this.indices));
      this.idx = idx;
    }
  }

  /** Uploads what the frame wrote (only the used part of each buffer) and shows the mesh when it holds anything. */
  public commit(): void {
    const n = this.indices;
    this.mesh.visible = n > 0;
    if (n === 0 && this.uploaded === 0) return;
    this.uploaded = n;
    if (this.posBuffer.data !== this.pos) {
      this.posBuffer.data = this.pos;
      this.colBuffer.data = this.col;
    } else {
      this.posBuffer.update(this.vertices * 8);
      this.colBuffer.update(this.vertices * 4);
    }
    if (this.idxBuffer.data !== this.idx) this.idxBuffer.data = this.idx;
    else this.idxBuffer.update(n * 4);
    this.geometry.indexCount = n;
  }
}

/**
 * Circle outlines of one channel: a unit circle of `segments` segments (a static line list) drawn
 * once per instance; the instance buffers (centre and radius, colour) persist and are refilled in
 * place.
 */
class CircleBatch {
  public circles = new Float32Array(3 * 64);
  public col = new Int32Array(64);
  public count = 0;
  private uploaded = 0;
  private readonly circleBuffer: Buffer;
  private readonly colBuffer: Buffer;
  private readonly geometry: Geometry;
  public readonly mesh: Mesh<Geometry, Shader>;

  public constructor(shader: Shader, segments: number, label: string) {
    const unit = new Float32Array(segments * 2);
    const idx = new Uint32Array(segments * 2);
    for (let s = 0; s < segments; s++) {
      const a = (s / segments) * Math.PI * 2;
      unit[s * 2] = Math.cos(a);
      unit[s * 2 + 1] = Math.sin(a);
      idx[s * 2] = s;
      idx[s * 2 + 1] = (s + 1) % segments;
    }
    this.circleBuffer = new Buffer({ data: this.circles, usage: BufferUsage.VERTEX | BufferUsage.COPY_DST });
    this.colBuffer = new Buffer({ data: this.col, usage: BufferUsage.VERTEX | BufferUsage.COPY_DST });
    this.geometry = new Geometry({
      attributes: {
        aUnit: { buffer: new Buffer({ data: unit, usage: BufferUsage.VERTEX }), format: 'float32x2' },
        aCircle: { buffer: this.circleBuffer, format: 'float32x3', instance: true },
        aColor: { buffer: this.colBuffer, format: 'unorm8x4', instance: true },
      },
      indexBuffer: new Buffer({ data: idx, usage: BufferUsage.INDEX }),
      topology: 'line-list',
      instanceCount: 0,
    });
    this.mesh = new Mesh({ geometry: this.geometry, shader });
    this.mesh.label = label;
    this.mesh.visible = false;
  }

  /** Adds a circle; `abgr` is the colour's 24 low bits as `unorm8x4` reads them, `alpha` 0..255. */
  public add(x: number, y: number, r: number, abgr: number, alpha: number): void {
    const k = this.count;
    if (k === this.col.length) {
      const circles = new Float32Array(k * 6);
      circles.set(this.circles);
      const col = new Int32Array(k * 2);
      col.set(this.col);
      this.circles = circles;
      this.col = col;
    }
    const c = this.circles;
    c[k * 3] = x;
    c[k * 3 + 1] = y;
    c[k * 3 + 2] = r;
    this.col[k] = abgr | (alpha << 24);
    this.count = k + 1;
  }

  /** Uploads the frame's instances and shows the mesh when it holds any. */
  public commit(): void {
    const n = this.count;
    this.mesh.visible = n > 0;
    if (n === 0 && this.uploaded === 0) return;
    this.uploaded = n;
    if (this.circleBuffer.data !== this.circles) {
      this.circleBuffer.data = this.circles;
      this.colBuffer.data = this.col;
    } else {
      this.circleBuffer.update(n * 12);
      this.colBuffer.update(n * 4);
    }
    this.geometry.instanceCount = n;
  }
}

/**
 * Draws a frame's debug primitives as meshes whose buffers persist and are refilled in place, per
 * channel: a line list (lines, arrows, box outlines, 1 pixel wide at any zoom, as pixi's `pixelLine`
 * strokes), two instanced unit circles (sphere outlines, small and large radii) and a triangle list
 * (points, filled squares). Each vertex or instance carries its primitive's colour, so a channel
 * costs four draw calls whatever its colours, and a changed frame costs one pass over the
 * primitives plus the upload of the used part of the buffers: no pixi `Graphics` is rebuilt or
 * tessellated. WebGL only (a GLSL program); `DebugLayers` falls back to
 * `PrimitiveDrawer` on other renderers and for lines wider than a pixel.
 *
 * Looks like `PrimitiveDrawer`: circles are 64-gons (256-gons past a radius of 40), points are squares of `size`
 * world units at `fillAlpha`, arrow heads are `headSize` long. Within a channel, points are drawn
 * over the channel's lines.
 *
 * @internal Not exported from `rewindable/pixi`; reached as `overlay.layers.meshes`.
 *
 * @example
 * const meshes = new PrimitiveMeshes();
 * meshes.attach(c, channelContainer); // once per channel
 * meshes.draw(prims, mask);
 */
export class PrimitiveMeshes {
  /** Opacity of fills (points). */
  public fillAlpha = 0.9;
  /** Indices of text primitives found by the last `draw`, in record order. */
  public texts = new Int32Array(0);
  /** How many indices `texts` holds. */
  public textCount = 0;
  /** Non-text primitives drawn per channel by the last `draw`. */
  public readonly drawnCount = new Int32Array(CHANNELS);
  private readonly shader = new Shader({
    glProgram: new GlProgram({ vertex: VERTEX, fragment: FRAGMENT, name: 'rewindable-primitives' }),
    resources: {},
  });
  private readonly circleShader = new Shader({
    glProgram: new GlProgram({ vertex: CIRCLE_VERTEX, fragment: FRAGMENT, name: 'rewindable-circles' }),
    resources: {},
  });
  private readonly lines: Array<MeshBatch | undefined> = [];
  private readonly fills: Array<MeshBatch | undefined> = [];
  private readonly small: Array<CircleBatch | undefined> = [];
  private readonly big: Array<CircleBatch | undefined> = [];

  /** Creates channel `c`'s meshes in `parent` (lines below points). Does nothing when they exist. */
  public attach(c: number, parent: Container): void {
    if (this.lines[c] !== undefined) return;
    const lines = new MeshBatch(this.shader, 'line-list', `rewindable:channel:${c}:lines`);
    const fills = new MeshBatch(this.shader, 'triangle-list', `rewindable:channel:${c}:points`);
    const small = new CircleBatch(this.circleShader, SMALL_CIRCLE_SEGMENTS, `rewindable:channel:${c}:circles`);
    const big = new CircleBatch(this.circleShader, BIG_CIRCLE_SEGMENTS, `rewindable:channel:${c}:big-circles`);
    this.lines[c] = lines;
    this.fills[c] = fills;
    this.small[c] = small;
    this.big[c] = big;
    parent.addChild(lines.mesh, small.mesh, big.mesh, fills.mesh);
  }

  /** True when channel `c` has meshes. */
  public has(c: number): boolean {
    return this.lines[c] !== undefined;
  }

  /**
   * Refills every attached channel's meshes from `prims`: channels outside `mask` are emptied.
   * Text primitives are not drawn: their indices are listed in `texts`.
   */
  public draw(prims: PrimitiveBuffer, mask: number): void {
    const n = prims.count;
    if (this.texts.length < n) this.texts = new Int32Array(Math.max(n, this.texts.length * 2));
    const lines = this.lines;
    const fills = this.fills;
    const small = this.small;
    const big = this.big;
    const drawn = this.drawnCount;
    drawn.fill(0);
    for (let c = 0; c < CHANNELS; c++) {
      const l = lines[c];
      if (l === undefined) continue;
      l.vertices = 0;
      l.indices = 0;
      const f = fills[c] as MeshBatch;
      f.vertices = 0;
      f.indices = 0;
      (small[c] as CircleBatch).count = 0;
      (big[c] as CircleBatch).count = 0;
    }
    this.textCount = 0;
    const types = prims.types;
    const chans = prims.channels;
    const colors = prims.colors;
    const d = prims.data;
    const fillAlpha = Math.round(Math.min(1, Math.max(0, this.fillAlpha)) * 255);
    for (let i = 0; i < n; i++) {
      const type = types[i];
      if (type === PRIM_TEXT) {
        this.texts[this.textCount++] = i;
        continue;
      }
      const c = chans[i];
      if ((mask & (1 << c)) === 0) continue;
      const l = lines[c];
      if (l === undefined) continue;
      drawn[c]++;
      const rgb = colors[i];
      // 0xRRGGBB → bytes R, G, B (then A) in memory (little-endian words), as `unorm8x4` reads them.
      // Colour and alpha travel apart and are combined where stored: a full 32-bit word would not be
      // a small integer and could be boxed on each call.
      const abgr = ((rgb >>> 16) & 0xff) | (rgb & 0xff00) | ((rgb & 0xff) << 16);
      const o = i * PRIM_FLOATS;
      switch (type) {
        case PRIM_POINT:
          addPoint(fills[c] as MeshBatch, d[o], d[o + 1], d[o + 3] * 0.5, abgr, fillAlpha);
          break;
        case PRIM_LINE:
          addLine(l, d[o], d[o + 1], d[o + 3], d[o + 4], abgr, 255);
          break;
        case PRIM_ARROW:
          addArrow(l, d[o], d[o + 1], d[o + 3], d[o + 4], d[o + 6], abgr);
          break;
        case PRIM_SPHERE:
          if (d[o + 3] > 0) {
            const r = d[o + 3];
            ((r <= BIG_RADIUS ? small[c] : big[c]) as CircleBatch).add(d[o], d[o + 1], r, abgr, 255);
          }
          break;
        case PRIM_AABB:
          addBox(l, d[o], d[o + 1], d[o + 3], d[o + 4], abgr);
          break;
        default:
          drawn[c]--;
          break;
      }
    }
    for (let c = 0; c < CHANNELS; c++) {
      const l = lines[c];
      if (l === undefined) continue;
      l.commit();
      (fills[c] as MeshBatch).commit();
      (small[c] as CircleBatch).commit();
      (big[c] as CircleBatch).commit();
    }
  }

  /** Empties every channel's meshes. */
  public clear(): void {
    for (let c = 0; c < CHANNELS; c++) {
      const l = this.lines[c];
      if (l === undefined) continue;
      const f = this.fills[c] as MeshBatch;
      const sc = this.small[c] as CircleBatch;
      const bc = this.big[c] as CircleBatch;
      l.vertices = l.indices = f.vertices = f.indices = sc.count = bc.count = 0;
      l.commit();
      f.commit();
      sc.commit();
      bc.commit();
    }
    this.drawnCount.fill(0);
    this.textCount = 0;
  }
}

function addPoint(b: MeshBatch, x: number, y: number, h: number, abgr: number, alpha: number): void {
  b.reserve(4, 6);
  const v = b.vertices;
  const p = b.pos;
  const k = v * 2;
  p[k] = x - h;
  p[k + 1] = y - h;
  p[k + 2] = x + h;
  p[k + 3] = y - h;
  p[k + 4] = x + h;
  p[k + 5] = y + h;
  p[k + 6] = x - h;
  p[k + 7] = y + h;
  const color = abgr | (alpha << 24);
  const cl = b.col;
  cl[v] = color;
  cl[v + 1] = color;
  cl[v + 2] = color;
  cl[v + 3] = color;
  const ix = b.idx;
  const j = b.indices;
  ix[j] = v;
  ix[j + 1] = v + 1;
  ix[j + 2] = v + 2;
  ix[j + 3] = v;
  ix[j + 4] = v + 2;
  ix[j + 5] = v + 3;
  b.vertices = v + 4;
  b.indices = j + 6;
}

function addLine(b: MeshBatch, x1: number, y1: number, x2: number, y2: number, abgr: number, alpha: number): void {
  b.reserve(2, 2);
  const v = b.vertices;
  const p = b.pos;
  const k = v * 2;
  p[k] = x1;
  p[k + 1] = y1;
  p[k + 2] = x2;
  p[k + 3] = y2;
  const color = abgr | (alpha << 24);
  b.col[v] = color;
  b.col[v + 1] = color;
  b.idx[b.indices] = v;
  b.idx[b.indices + 1] = v + 1;
  b.vertices = v + 2;
  b.indices += 2;
}

function addArrow(b: MeshBatch, x1: number, y1: number, x2: number, y2: number, head: number, abgr: number): void {
  addLine(b, x1, y1, x2, y2, abgr, 255);
  const dx = x2 - x1;
  const dy = y2 - y1;
  const len = Math.sqrt(dx * dx + dy * dy);
  if (!(len > 0 && head > 0)) return;
  const ux = dx / len;
  const uy = dy / len;
  const bx = x2 - ux * head;
  const by = y2 - uy * head;
  const px = -uy * head * 0.5;
  const py = ux * head * 0.5;
  b.reserve(3, 4);
  const v = b.vertices;
  const p = b.pos;
  const k = v * 2;
  p[k] = bx + px;
  p[k + 1] = by + py;
  p[k + 2] = x2;
  p[k + 3] = y2;
  p[k + 4] = bx - px;
  p[k + 5] = by - py;
  const color = abgr | 0xff000000;
  const cl = b.col;
  cl[v] = color;
  cl[v + 1] = color;
  cl[v + 2] = color;
  const ix = b.idx;
  const j = b.indices;
  ix[j] = v;
  ix[j + 1] = v + 1;
  ix[j + 2] = v + 1;
  ix[j + 3] = v + 2;
  b.vertices = v + 3;
  b.indices = j + 4;
}

function addBox(b: MeshBatch, x1: number, y1: number, x2: number, y2: number, abgr: number): void {
  b.reserve(4, 8);
  const v = b.vertices;
  const p = b.pos;
  const k = v * 2;
  p[k] = x1;
  p[k + 1] = y1;
  p[k + 2] = x2;
  p[k + 3] = y1;
  p[k + 4] = x2;
  p[k + 5] = y2;
  p[k + 6] = x1;
  p[k + 7] = y2;
  const color = abgr | 0xff000000;
  const cl = b.col;
  cl[v] = color;
  cl[v + 1] = color;
  cl[v + 2] = color;
  cl[v + 3] = color;
  const ix = b.idx;
  const j = b.indices;
  for (let s = 0; s < 4; s++) {
    ix[j + s * 2] = v + s;
    ix[j + s * 2 + 1] = v + ((s + 1) & 3);
  }
  b.vertices = v + 4;
  b.indices = j + 8;
}
