// Keyed row fingerprints: HMAC-SHA-256 (RFC 2104 over FIPS 180-4) of a byte range, truncated to 64 bits.
// Written here rather than through node:crypto because a run computes one per written row: a native
// createHmac() costs a few microseconds of call overhead per row, more than mapping the row itself. The
// key's inner and outer pad blocks are compressed once; a row then costs its own blocks plus one outer
// block, read straight from the output buffer without a copy. Checked against node:crypto in hmac.spec.ts.

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);
const IV = new Int32Array([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

/** One SHA-256 compression of the 16 words already in w[0..15] into `h`. */
function compress(h: Int32Array, w: Int32Array): void {
  for (let t = 16; t < 64; t++) {
    const a = w[t - 15];
    const b = w[t - 2];
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    w[t] = (w[t - 16] + s0 + w[t - 7] + s1) | 0;
  }
  let a = h[0];
  let b = h[1];
  let c = h[2];
  let d = h[3];
  let e = h[4];
  let f = h[5];
  let g = h[6];
  let hh = h[7];
  for (let t = 0; t < 64; t++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const ch = (e & f) ^ (~e & g);
    const t1 = (hh + S1 + ch + K[t] + w[t]) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const maj = (a & b) ^ (a & c) ^ (b & c);
    const t2 = (S0 + maj) | 0;
    hh = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  h[0] = (h[0] + a) | 0;
  h[1] = (h[1] + b) | 0;
  h[2] = (h[2] + c) | 0;
  h[3] = (h[3] + d) | 0;
  h[4] = (h[4] + e) | 0;
  h[5] = (h[5] + f) | 0;
  h[6] = (h[6] + g) | 0;
  h[7] = (h[7] + hh) | 0;
}

/**
 * HMAC-SHA-256 with one key. `fingerprint(buf, s, e)` leaves the digest's first 64 bits in `hi` and `lo`
 * (big-endian words 0 and 1, as unsigned 32-bit numbers). Several ranges may be fed as one message with
 * begin() / update() / finish() (e.g. length-prefixed key columns).
 */
export class RowHmac {
  hi = 0;
  lo = 0;
  private readonly inner = new Int32Array(8);
  private readonly outer = new Int32Array(8);
  private readonly h = new Int32Array(8);
  private readonly w = new Int32Array(64);
  /** Bytes of the current message waiting for a full block. */
  private readonly block = new Uint8Array(64);
  private fill = 0;
  private total = 0;

  constructor(key: Uint8Array) {
    let k = key;
    if (k.length > 64) {
      const h = new Int32Array(IV);
      this.h.set(IV);
      this.begin(IV);
      this.update(k, 0, k.length);
      this.digestInto(h);
      k = new Uint8Array(32);
      for (let i = 0; i < 8; i++) {
        k[i * 4] = h[i] >>> 24;
        k[i * 4 + 1] = h[i] >>> 16;
        k[i * 4 + 2] = h[i] >>> 8;
        k[i * 4 + 3] = h[i];
      }
    }
    const pad = new Uint8Array(64);
    for (const [state, x] of [
      [this.inner, 0x36],
      [this.outer, 0x5c],
    ] as const) {
      pad.fill(x);
      for (let i = 0; i < k.length; i++) pad[i] = k[i] ^ x;
      state.set(IV);
      for (let i = 0; i < 16; i++)
        this.w[i] = (pad[i * 4] << 24) | (pad[i * 4 + 1] << 16) | (pad[i * 4 + 2] << 8) | pad[i * 4 + 3];
      compress(state, this.w);
    }
  }

  /** The fingerprint of buf[s, e). */
  fingerprint(buf: Uint8Array, s: number, e: number): void {
    this.begin(this.inner, 64);
    this.update(buf, s, e);
    this.finish();
  }

  /** Starts a message keyed by this HMAC (inner pad already counted). */
  start(): void {
    this.begin(this.inner, 64);
  }

  /** A 4-byte big-endian length, then the bytes: an unambiguous field of a multi-part message. */
  field(buf: Uint8Array, s: number, e: number): void {
    const n = e - s;
    this.byte(n >>> 24);
    this.byte(n >>> 16);
    this.byte(n >>> 8);
    this.byte(n);
    this.update(buf, s, e);
  }

  /** Ends the message: `hi` / `lo` hold the truncated HMAC. */
  finish(): void {
    const h = this.h;
    this.digestInner(h);
    // Outer hash: opad state, then the 32-byte inner digest, 0x80, zeros, bit length 768.
    const w = this.w;
    for (let i = 0; i < 8; i++) w[i] = h[i];
    w[8] = 0x80000000 | 0;
    for (let i = 9; i < 15; i++) w[i] = 0;
    w[15] = (64 + 32) * 8;
    h.set(this.outer);
    compress(h, w);
    this.hi = h[0] >>> 0;
    this.lo = h[1] >>> 0;
  }

  private begin(state: Int32Array, counted = 0): void {
    this.h.set(state);
    this.fill = 0;
    this.total = counted;
  }

  private byte(v: number): void {
    this.block[this.fill++] = v & 0xff;
    this.total++;
    if (this.fill === 64) this.flushBlock();
  }

  update(buf: Uint8Array, s: number, e: number): void {
    this.total += e - s;
    let i = s;
    const w = this.w;
    if (this.fill > 0) {
      const block = this.block;
      while (i < e && this.fill < 64) block[this.fill++] = buf[i++];
      if (this.fill < 64) return;
      this.flushBlock();
    }
    // Whole blocks straight from the buffer.
    while (e - i >= 64) {
      for (let j = 0; j < 16; j++, i += 4)
        w[j] = (buf[i] << 24) | (buf[i + 1] << 16) | (buf[i + 2] << 8) | buf[i + 3];
      compress(this.h, w);
    }
    const block = this.block;
    while (i < e) block[this.fill++] = buf[i++];
  }

  private flushBlock(): void {
    const b = this.block;
    const w = this.w;
    for (let j = 0; j < 16; j++) {
      const i = j * 4;
      w[j] = (b[i] << 24) | (b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3];
    }
    compress(this.h, w);
    this.fill = 0;
  }

  /** Pads the inner message and leaves its digest in `out`. */
  private digestInner(out: Int32Array): void {
    const bits = this.total * 8;
    const b = this.block;
    b[this.fill++] = 0x80;
    if (this.fill > 56) {
      while (this.fill < 64) b[this.fill++] = 0;
      this.flushBlock();
    }
    while (this.fill < 56) b[this.fill++] = 0;
    const hiBits = Math.floor(bits / 0x100000000);
    b[56] = hiBits >>> 24;
    b[57] = hiBits >>> 16;
    b[58] = hiBits >>> 8;
    b[59] = hiBits;
    b[60] = bits >>> 24;
    b[61] = bits >>> 16;
    b[62] = bits >>> 8;
    b[63] = bits;
    this.fill = 64;
    this.flushBlock();
    out.set(this.h);
  }

  /** Plain SHA-256 of what was fed since begin(IV) (long keys only). */
  private digestInto(out: Int32Array): void {
    this.digestInner(out);
  }
}
