/**
 * A small seeded PRNG (mulberry32) and a string hash (FNV-1a), so the same seed gives the same
 * ids, secrets and charges on every start. Not for cryptography.
 */

/** hashSeed folds its parts into one unsigned 32-bit number (FNV-1a over the UTF-8 of the parts). */
export function hashSeed(...parts: (string | number)[]): number {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(parts.join("\u0000"), "utf8")) {
    h ^= byte;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Rng is mulberry32 with helpers for the shapes the emulator needs. */
export class Rng {
  private state: number;

  constructor(...seedParts: (string | number)[]) {
    this.state = hashSeed(...seedParts);
  }

  /** next returns a float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** int returns an integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** bytes returns n pseudo-random bytes. */
  bytes(n: number): Buffer {
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i++) out[i] = Math.floor(this.next() * 256);
    return out;
  }

  /** hex returns 2n lower-case hex digits (a Keystone id is `hex(16)`). */
  hex(n: number): string {
    return this.bytes(n).toString("hex");
  }

  /** base64url returns n bytes as unpadded URL-safe base64. */
  base64url(n: number): string {
    return this.bytes(n).toString("base64url");
  }

  /** shuffle returns a shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const tmp = out[i] as T;
      out[i] = out[j] as T;
      out[j] = tmp;
    }
    return out;
  }
}
