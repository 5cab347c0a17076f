import { ReplayError } from './ReplayError';

/**
 * A MessagePack float (float32 or float64) as decoded by `MsgDecoder`: kept apart from integers,
 * so that a field the format says is an integer refuses a float even when its value is whole.
 * No field of the format is a float; this only appears in fields a newer writer added.
 */
export class MsgFloat {
  public constructor(public readonly value: number) {}
}

/** Deepest nesting accepted (the format itself nests four levels). */
const MAX_DEPTH = 64;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A strict MessagePack decoder for untrusted replay files, exactly as docs/replay-format.md says:
 * maps decode as `Map` with string keys only, each key once; integers of any width as numbers;
 * floats as `MsgFloat`; strings must be valid UTF-8; `bin` as a view on the input (no copy);
 * extension types and the never-used byte 0xC1 are refused. Nothing is allocated beyond what the
 * bytes hold: an array or map never claims more elements than bytes remain. Errors are
 * `ReplayError`s (`TRUNCATED`, `CORRUPT`, `TOO_LARGE`) with the path of the value.
 *
 * @example
 * const d = new MsgDecoder(bytes);
 * const header = d.decode(6, 'header'); // the value at byte 6; d.position is the byte after it
 */
export class MsgDecoder {
  /** The byte after the last value decoded. */
  public position = 0;
  private readonly view: DataView;
  private readonly path: Array<string | number> = [];
  private root = '';

  public constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Decodes the value at byte `at`; `root` names it in error paths. */
  public decode(at: number, root: string): unknown {
    this.position = at;
    this.root = root;
    this.path.length = 0;
    return this.value(0);
  }

  private where(): string {
    let s = this.root;
    for (const p of this.path) s += typeof p === 'number' ? `[${p}]` : `.${p.length > 64 ? `${p.slice(0, 64)}…` : p}`;
    return s;
  }

  private fail(code: 'TRUNCATED' | 'CORRUPT' | 'TOO_LARGE', detail: string): never {
    throw new ReplayError(code, detail, this.where());
  }

  /** Makes sure `n` more bytes exist. */
  private need(n: number): void {
    if (this.position + n > this.bytes.length)
      this.fail('TRUNCATED', `the file ends inside a MessagePack value (${n} more bytes needed)`);
  }

  private u8(): number {
    this.need(1);
    return this.bytes[this.position++];
  }

  private u16(): number {
    this.need(2);
    const v = this.view.getUint16(this.position);
    this.position += 2;
    return v;
  }

  private u32(): number {
    this.need(4);
    const v = this.view.getUint32(this.position);
    this.position += 4;
    return v;
  }

  private value(depth: number): unknown {
    const t = this.u8();
    if (t <= 0x7f) return t;
    if (t >= 0xe0) return t - 256;
    if (t <= 0x8f) return this.map(t & 0x0f, depth);
    if (t <= 0x9f) return this.array(t & 0x0f, depth);
    if (t <= 0xbf) return this.str(t & 0x1f);
    const v = this.view;
    switch (t) {
      case 0xc0:
        return null;
      case 0xc2:
        return false;
      case 0xc3:
        return true;
      case 0xc4:
        return this.bin(this.u8());
      case 0xc5:
        return this.bin(this.u16());
      case 0xc6:
        return this.bin(this.u32());
      case 0xca: {
        this.need(4);
        const f = v.getFloat32(this.position);
        this.position += 4;
        return new MsgFloat(f);
      }
      case 0xcb: {
        this.need(8);
        const f = v.getFloat64(this.position);
        this.position += 8;
        return new MsgFloat(f);
      }
      case 0xcc:
        return this.u8();
      case 0xcd:
        return this.u16();
      case 0xce:
        return this.u32();
      case 0xcf: {
        const hi = this.u32();
        return hi * 4294967296 + this.u32();
      }
      case 0xd0:
        return (this.u8() << 24) >> 24;
      case 0xd1:
        return (this.u16() << 16) >> 16;
      case 0xd2:
        return this.u32() | 0;
      case 0xd3: {
        const hi = this.u32() | 0;
        return hi * 4294967296 + this.u32();
      }
      case 0xd9:
        return this.str(this.u8());
      case 0xda:
        return this.str(this.u16());
      case 0xdb:
        return this.str(this.u32());
      case 0xdc:
        return this.array(this.u16(), depth);
      case 0xdd:
        return this.array(this.u32(), depth);
      case 0xde:
        return this.map(this.u16(), depth);
      case 0xdf:
        return this.map(this.u32(), depth);
      default:
        // 0xc1 (never used), 0xc7-0xc9 and 0xd4-0xd8 (extension types).
        return this.fail(
          'CORRUPT',
          t === 0xc1
            ? 'MessagePack byte 0xc1 is never used'
            : `MessagePack extension type (byte 0x${t.toString(16)}): the format uses none`,
        );
    }
  }

  private bin(n: number): Uint8Array {
    this.need(n);
    const b = this.bytes.subarray(this.position, this.position + n);
    this.position += n;
    return b;
  }

  private str(n: number): string {
    this.need(n);
    const b = this.bytes;
    const start = this.position;
    this.position += n;
    if (n <= 32) {
      let s = '';
      for (let i = start; i < start + n; i++) {
        const c = b[i];
        if (c >= 0x80) return this.utf8(start, n);
        s += String.fromCharCode(c);
      }
      return s;
    }
    return this.utf8(start, n);
  }

  private utf8(start: number, n: number): string {
    try {
      return utf8.decode(this.bytes.subarray(start, start + n));
    } catch {
      return this.fail('CORRUPT', 'a string is not valid UTF-8');
    }
  }

  private array(n: number, depth: number): unknown[] {
    if (depth >= MAX_DEPTH) this.fail('TOO_LARGE', `values nested deeper than ${MAX_DEPTH} levels`);
    // Every element takes at least one byte: a count past the end is a cut file, not an allocation.
    if (n > this.bytes.length - this.position)
      this.fail(
        'TRUNCATED',
        `an array of ${n} elements cannot fit in the ${this.bytes.length - this.position} bytes left`,
      );
    const out: unknown[] = [];
    const path = this.path;
    for (let i = 0; i < n; i++) {
      path.push(i);
      out.push(this.value(depth + 1));
      path.pop();
    }
    return out;
  }

  private map(n: number, depth: number): Map<string, unknown> {
    if (depth >= MAX_DEPTH) this.fail('TOO_LARGE', `values nested deeper than ${MAX_DEPTH} levels`);
    if (2 * n > this.bytes.length - this.position)
      this.fail('TRUNCATED', `a map of ${n} entries cannot fit in the ${this.bytes.length - this.position} bytes left`);
    const out = new Map<string, unknown>();
    const path = this.path;
    for (let i = 0; i < n; i++) {
      this.need(1);
      const t = this.bytes[this.position];
      const isStr = (t >= 0xa0 && t <= 0xbf) || t === 0xd9 || t === 0xda || t === 0xdb;
      if (!isStr) this.fail('CORRUPT', `map key ${i} is not a string (MessagePack byte 0x${t.toString(16)})`);
      const key = this.value(depth + 1) as string;
      if (out.has(key)) this.fail('CORRUPT', `key ${JSON.stringify(key.slice(0, 64))} appears twice`);
      path.push(key);
      out.set(key, this.value(depth + 1));
      path.pop();
    }
    return out;
  }
}
