import { Bounds, Buffer, BufferUsage, type Container, Geometry, GlProgram, Mesh, Shader } from 'pixi.js';
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

const HEADER = `
in vec4 aUnit;
in vec4 aShape;
in float aHead;
in vec4 aColor;
out vec4 vColor;
uniform mat3 uProjectionMatrix;
uniform mat3 uWorldTransformMatrix;
uniform vec4 uWorldColorAlpha;
uniform mat3 uTransformMatrix;
uniform vec4 uColor;
`;
const OUTPUT = `
  mat3 mvp = uProjectionMatrix * uWorldTransformMatrix * uTransformMatrix;
  gl_Position = vec4((mvp * vec3(p, 1.0)).xy, 0.0, 1.0);
  vColor = vec4(aColor.rgb * aColor.a, aColor.a) * uColor * uWorldColorAlpha;
`;
/**
 * Lines, arrows, boxes and points: an instance is two corners `aShape` (x1, y1, x2, y2) and an
 * arrow head length; a unit vertex `aUnit` (sx, sy, t, w) is placed at `p1 + (p2 - p1) · (sx, sy)`,
 * then moved `t` head lengths back along the shaft and `w` head lengths across it.
 */
const SHAPE_VERTEX = `${HEADER}
void main() {
  vec2 p1 = aShape.xy;
  vec2 d = aShape.zw - p1;
  float len = length(d);
  vec2 u = len > 0.0 ? d / len : vec2(0.0);
  float head = len > 0.0 ? max(aHead, 0.0) : 0.0;
  vec2 p = p1 + d * aUnit.xy + head * (-u * aUnit.z + vec2(-u.y, u.x) * aUnit.w);
${OUTPUT}
}
`;
/** Circles: an instance is a centre and a radius (`aShape` x, y, r); `aUnit.xy` a point of the unit circle. */
const CIRCLE_VERTEX = `${HEADER}
void main() {
  vec2 p = aShape.xy + aUnit.xy * aShape.z;
${OUTPUT}
}
`;
const FRAGMENT = `
in vec4 vColor;
out vec4 finalColor;
void main() {
  finalColor = vColor;
}
`;

/** A unit shape: vertices (sx, sy, t, w) and the indices joining them. */
interface UnitShape {
  unit: Float32Array;
  indices: Uint32Array;
  topology: 'line-list' | 'triangle-list';
}

/** A line, or an arrow: tail, tip, and the two ends of the head (zero-length when there is no head). */
const ARROW: UnitShape = {
  unit: new Float32Array([0, 0, 0, 0, 1, 1, 0, 0, 1, 1, 1, 0.5, 1, 1, 1, -0.5]),
  indices: new Uint32Array([0, 1, 2, 1, 1, 3]),
  topology: 'line-list',
};
const BOX: UnitShape = {
  unit: new Float32Array([0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0]),
  indices: new Uint32Array([0, 1, 1, 2, 2, 3, 3, 0]),
  topology: 'line-list',
};
const SQUARE: UnitShape = {
  unit: BOX.unit,
  indices: new Uint32Array([0, 1, 2, 0, 2, 3]),
  topology: 'triangle-list',
};

function circle(segments: number): UnitShape {
  const unit = new Float32Array(segments * 4);
  const indices = new Uint32Array(segments * 2);
  for (let s = 0; s < segments; s++) {
    const a = (s / segments) * Math.PI * 2;
    unit[s * 4] = Math.cos(a);
    unit[s * 4 + 1] = Math.sin(a);
    indices[s * 2] = s;
    indices[s * 2 + 1] = (s + 1) % segments;
  }
  return { unit, indices, topology: 'line-list' };
}

/** Instance floats: x1, y1, x2, y2 (or x, y, r, 0), head. */
const FLOATS = 5;

/**
 * The geometry of an instanced batch: pixi computes a geometry's bounds from an `aPosition`
 * attribute, which it has not; the batch sets them from its instances instead.
 */
class InstancedGeometry extends Geometry {
  public readonly shapeBounds = new Bounds();

  public override get bounds(): Bounds {
    return this.shapeBounds;
  }
}

/**
 * One instanced mesh of one channel: a static unit shape drawn once per instance; the instance
 * buffers (shape, colour) persist and are refilled in place, and only their used part is uploaded.
 */
class InstanceBatch {
  public shapes = new Float32Array(FLOATS * 64);
  public colors = new Int32Array(64);
  public count = 0;
  /** Instances uploaded by the last `commit` (an empty batch is not uploaded again). */
  private uploaded = 0;
  private readonly shapeBuffer: Buffer;
  private readonly colorBuffer: Buffer;
  private readonly geometry: InstancedGeometry;
  public readonly mesh: Mesh<Geometry, Shader>;

  /** `circles`: instances are centres and radii, not corners. */
  public constructor(
    shader: Shader,
    shape: UnitShape,
    label: string,
    private readonly circles = false,
  ) {
    this.shapeBuffer = new Buffer({ data: this.shapes, usage: BufferUsage.VERTEX | BufferUsage.COPY_DST });
    this.colorBuffer = new Buffer({ data: this.colors, usage: BufferUsage.VERTEX | BufferUsage.COPY_DST });
    this.geometry = new InstancedGeometry({
      attributes: {
        aUnit: { buffer: new Buffer({ data: shape.unit, usage: BufferUsage.VERTEX }), format: 'float32x4' },
        aShape: { buffer: this.shapeBuffer, format: 'float32x4', stride: FLOATS * 4, offset: 0, instance: true },
        aHead: { buffer: this.shapeBuffer, format: 'float32', stride: FLOATS * 4, offset: 16, instance: true },
        aColor: { buffer: this.colorBuffer, format: 'unorm8x4', instance: true },
      },
      indexBuffer: new Buffer({ data: shape.indices, usage: BufferUsage.INDEX }),
      topology: shape.topology,
      instanceCount: 1,
    });
    this.mesh = new Mesh({ geometry: this.geometry, shader });
    this.mesh.label = label;
    this.mesh.visible = false;
  }

  /** Adds an instance; `abgr` is the colour's 24 low bits as `unorm8x4` reads them, `alpha` 0..255. */
  public add(a: number, b: number, c: number, d: number, head: number, abgr: number, alpha: number): void {
    const k = this.count;
    if (k === this.colors.length) this.grow();
    const s = this.shapes;
    const o = k * FLOATS;
    s[o] = a;
    s[o + 1] = b;
    s[o + 2] = c;
    s[o + 3] = d;
    s[o + 4] = head;
    this.colors[k] = abgr | (alpha << 24);
    this.count = k + 1;
  }

  /** Uploads the frame's instances and shows the mesh when it holds any. */
  public commit(): void {
    const n = this.count;
    this.mesh.visible = n > 0;
    if (n === 0 && this.uploaded === 0) return;
    this.uploaded = n;
    if (this.shapeBuffer.data !== this.shapes) {
      this.shapeBuffer.data = this.shapes;
      this.colorBuffer.data = this.colors;
    } else {
      this.shapeBuffer.update(n * FLOATS * 4);
      this.colorBuffer.update(n * 4);
    }
    this.geometry.instanceCount = n > 0 ? n : 1;
    this.updateBounds();
  }

  /** The instances' bounds (arrow heads counted as a head length around the tip). */
  private updateBounds(): void {
    const s = this.shapes;
    const b = this.geometry.shapeBounds;
    let minX = Number.POSITIVE_INFINITY;
    let minY = Number.POSITIVE_INFINITY;
    let maxX = Number.NEGATIVE_INFINITY;
    let maxY = Number.NEGATIVE_INFINITY;
    for (let k = 0; k < this.count; k++) {
      const o = k * FLOATS;
      let x1: number;
      let y1: number;
      let x2: number;
      let y2: number;
      if (this.circles) {
        x1 = s[o] - s[o + 2];
        x2 = s[o] + s[o + 2];
        y1 = s[o + 1] - s[o + 2];
        y2 = s[o + 1] + s[o + 2];
      } else {
        const h = s[o + 4] > 0 ? s[o + 4] : 0;
        x1 = Math.min(s[o], s[o + 2] - h);
        x2 = Math.max(s[o], s[o + 2] + h);
        y1 = Math.min(s[o + 1], s[o + 3] - h);
        y2 = Math.max(s[o + 1], s[o + 3] + h);
      }
      if (x1 < minX) minX = x1;
      if (y1 < minY) minY = y1;
      if (x2 > maxX) maxX = x2;
      if (y2 > maxY) maxY = y2;
    }
    if (minX > maxX) {
      minX = minY = maxX = maxY = 0;
    }
    b.minX = minX;
    b.minY = minY;
    b.maxX = maxX;
    b.maxY = maxY;
  }

  private grow(): void {
    const k = this.count;
    const shapes = new Float32Array(k * 2 * FLOATS);
    shapes.set(this.shapes);
    const colors = new Int32Array(k * 2);
    colors.set(this.colors);
    this.shapes = shapes;
    this.colors = colors;
  }
}

/** The meshes of one channel, in drawing order. */
class ChannelMeshes {
  public readonly arrows: InstanceBatch;
  public readonly boxes: InstanceBatch;
  public readonly circles: InstanceBatch;
  public readonly bigCircles: InstanceBatch;
  public readonly points: InstanceBatch;
  public readonly all: readonly InstanceBatch[];

  public constructor(shapeShader: Shader, circleShader: Shader, small: UnitShape, big: UnitShape, c: number) {
    const name = `rewindable:channel:${c}`;
    this.arrows = new InstanceBatch(shapeShader, ARROW, `${name}:lines`);
    this.boxes = new InstanceBatch(shapeShader, BOX, `${name}:boxes`);
    this.circles = new InstanceBatch(circleShader, small, `${name}:circles`, true);
    this.bigCircles = new InstanceBatch(circleShader, big, `${name}:big-circles`, true);
    this.points = new InstanceBatch(shapeShader, SQUARE, `${name}:points`);
    this.all = [this.arrows, this.boxes, this.circles, this.bigCircles, this.points];
  }
}

/**
 * Draws a frame's debug primitives as instanced meshes whose instance buffers persist and are
 * refilled in place. Per channel: lines and arrows, box outlines, and circle outlines (a small and a
 * large unit circle) are line lists, 1 pixel wide at any zoom as pixi's `pixelLine` strokes; points
 * are filled squares. An instance is 24 bytes (two corners or a centre and radius, a head length,
 * a colour), so a changed frame costs one pass over the primitives writing six numbers each, plus
 * the upload of the used part of the buffers: no pixi `Graphics` is rebuilt or tessellated, and a
 * channel costs at most five draw calls whatever its colours. WebGL only (a GLSL program):
 * `DebugLayers` falls back to `PrimitiveDrawer` on other renderers and for lines wider than a pixel.
 *
 * Looks like `PrimitiveDrawer`: circles are 64-gons (256-gons past a radius of 40), points are
 * squares of `size` world units at `fillAlpha`, arrow heads are `headSize` long and half as wide.
 * Within a channel, points are drawn over circles, circles over boxes, boxes over lines.
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
  private readonly shapeShader = new Shader({
    glProgram: new GlProgram({ vertex: SHAPE_VERTEX, fragment: FRAGMENT, name: 'rewindable-shapes' }),
    resources: {},
  });
  private readonly circleShader = new Shader({
    glProgram: new GlProgram({ vertex: CIRCLE_VERTEX, fragment: FRAGMENT, name: 'rewindable-circles' }),
    resources: {},
  });
  private readonly small = circle(SMALL_CIRCLE_SEGMENTS);
  private readonly big = circle(BIG_CIRCLE_SEGMENTS);
  private readonly channels: Array<ChannelMeshes | undefined> = [];

  /** Creates channel `c`'s meshes in `parent`. Does nothing when they exist. */
  public attach(c: number, parent: Container): void {
    if (this.channels[c] !== undefined) return;
    const m = new ChannelMeshes(this.shapeShader, this.circleShader, this.small, this.big, c);
    this.channels[c] = m;
    for (const b of m.all) parent.addChild(b.mesh);
  }

  /** True when channel `c` has meshes. */
  public has(c: number): boolean {
    return this.channels[c] !== undefined;
  }

  /**
   * Refills every attached channel's meshes from `prims`: channels outside `mask` are emptied.
   * Text primitives are not drawn: their indices are listed in `texts`.
   */
  public draw(prims: PrimitiveBuffer, mask: number): void {
    const n = prims.count;
    if (this.texts.length < n) this.texts = new Int32Array(Math.max(n, this.texts.length * 2));
    const channels = this.channels;
    const drawn = this.drawnCount;
    drawn.fill(0);
    for (let c = 0; c < CHANNELS; c++) {
      const m = channels[c];
      if (m === undefined) continue;
      for (let k = 0; k < m.all.length; k++) m.all[k].count = 0;
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
      const m = channels[c];
      if (m === undefined) continue;
      const rgb = colors[i];
      // 0xRRGGBB → bytes R, G, B (then A) in memory (little-endian words), as `unorm8x4` reads them.
      // Colour and alpha travel apart and are combined where stored: a full 32-bit word would not be
      // a small integer and could be boxed on each call.
      const abgr = ((rgb >>> 16) & 0xff) | (rgb & 0xff00) | ((rgb & 0xff) << 16);
      const o = i * PRIM_FLOATS;
      switch (type) {
        case PRIM_POINT: {
          const h = d[o + 3] * 0.5;
          m.points.add(d[o] - h, d[o + 1] - h, d[o] + h, d[o + 1] + h, 0, abgr, fillAlpha);
          break;
        }
        case PRIM_LINE:
          m.arrows.add(d[o], d[o + 1], d[o + 3], d[o + 4], 0, abgr, 255);
          break;
        case PRIM_ARROW:
          m.arrows.add(d[o], d[o + 1], d[o + 3], d[o + 4], d[o + 6], abgr, 255);
          break;
        case PRIM_SPHERE: {
          const r = d[o + 3];
          if (!(r > 0)) break;
          (r <= BIG_RADIUS ? m.circles : m.bigCircles).add(d[o], d[o + 1], r, 0, 0, abgr, 255);
          break;
        }
        case PRIM_AABB:
          m.boxes.add(d[o], d[o + 1], d[o + 3], d[o + 4], 0, abgr, 255);
          break;
        default:
          continue;
      }
      drawn[c]++;
    }
    for (let c = 0; c < CHANNELS; c++) {
      const m = channels[c];
      if (m === undefined) continue;
      for (let k = 0; k < m.all.length; k++) m.all[k].commit();
    }
  }

  /** Empties every channel's meshes. */
  public clear(): void {
    for (let c = 0; c < CHANNELS; c++) {
      const m = this.channels[c];
      if (m === undefined) continue;
      for (let k = 0; k < m.all.length; k++) {
        m.all[k].count = 0;
        m.all[k].commit();
      }
    }
    this.drawnCount.fill(0);
    this.textCount = 0;
  }
}
