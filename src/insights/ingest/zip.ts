/**
 * A small ZIP reader for archives held in memory (OSV's `<ecosystem>/all.zip`), following PKWARE's
 * APPNOTE: find the end-of-central-directory record (scanning back over at most a 64 KiB comment),
 * switch to the ZIP64 end record when the locator before it is present (OSV's big ecosystems have
 * more than 65,535 entries), walk the central directory (ZIP64 extra field 0x0001 for sizes and
 * offsets stored as 0xFFFFFFFF), then read each entry through its local header (whose own extra
 * field length may differ from the central one). Methods 0 (stored) and 8 (deflate, through
 * `fflate`'s `inflateSync`) are read; encrypted entries, other methods, a size or CRC-32 mismatch are
 * errors of that entry. Multi-disk archives are not supported.
 *
 * Issue 23 (docs/libraries.md): on a generated ZIP64 archive of 70,000 OSV-like entries (13.8 MB, ZIP64 end
 * record) this reader and fflate's `unzipSync` both read 70,000/70,000; inflating each entry through
 * `DecompressionStream` took 26-27 s for the archive, fflate's `unzipSync` 1.1-1.3 s, this walk with
 * fflate's `inflateSync` 1.0-1.5 s. So fflate does the deflate; the container walk stays because it
 * reads one entry at a time from the central directory (fflate's `unzipSync` inflates every entry into
 * memory at once, too much for a Worker on OSV's largest archives) and checks each entry's CRC-32, which
 * fflate does not.
 */
import { inflateSync } from 'fflate';

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  crc32: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX = 0xffffffff;

function u64(v: DataView, at: number): number {
  const n = v.getBigUint64(at, true);
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error('zip: 64-bit value too large');
  return Number(n);
}

/** The central directory's entries, in archive order. Throws when the archive is not a readable ZIP. */
export function zipEntries(buf: Uint8Array): ZipEntry[] {
  const v = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (v.getUint32(i, true) === EOCD && i + 22 + v.getUint16(i + 20, true) <= buf.length) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('zip: no end of central directory');
  let count = v.getUint16(eocd + 10, true);
  let cdSize = v.getUint32(eocd + 12, true);
  let cdOffset = v.getUint32(eocd + 16, true);
  if (eocd >= 20 && v.getUint32(eocd - 20, true) === ZIP64_LOCATOR) {
    const at = u64(v, eocd - 20 + 8);
    if (at + 56 > buf.length || v.getUint32(at, true) !== ZIP64_EOCD) throw new Error('zip: bad ZIP64 end record');
    count = u64(v, at + 32);
    cdSize = u64(v, at + 40);
    cdOffset = u64(v, at + 48);
  }
  if (cdOffset + cdSize > buf.length) throw new Error('zip: central directory outside the archive');
  const decoder = new TextDecoder();
  const out: ZipEntry[] = [];
  let p = cdOffset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > buf.length || v.getUint32(p, true) !== CENTRAL)
      throw new Error(`zip: bad central directory entry ${i}`);
    const nameLen = v.getUint16(p + 28, true);
    const extraLen = v.getUint16(p + 30, true);
    const commentLen = v.getUint16(p + 32, true);
    const e: ZipEntry = {
      name: decoder.decode(buf.subarray(p + 46, p + 46 + nameLen)),
      flags: v.getUint16(p + 8, true),
      method: v.getUint16(p + 10, true),
      crc32: v.getUint32(p + 16, true),
      compressedSize: v.getUint32(p + 20, true),
      size: v.getUint32(p + 24, true),
      localOffset: v.getUint32(p + 42, true),
    };
    // ZIP64 extended information: only the fields whose 32-bit value is 0xFFFFFFFF, in this order.
    for (let x = p + 46 + nameLen; x + 4 <= p + 46 + nameLen + extraLen; ) {
      const id = v.getUint16(x, true);
      const len = v.getUint16(x + 2, true);
      if (id === 0x0001) {
        let f = x + 4;
        if (e.size === MAX) {
          e.size = u64(v, f);
          f += 8;
        }
        if (e.compressedSize === MAX) {
          e.compressedSize = u64(v, f);
          f += 8;
        }
        if (e.localOffset === MAX) e.localOffset = u64(v, f);
      }
      x += 4 + len;
    }
    out.push(e);
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(data: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The entry's uncompressed bytes (async for callers; the inflate itself is synchronous). */
export async function readZipEntry(buf: Uint8Array, e: ZipEntry): Promise<Uint8Array> {
  const v = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (e.flags & 1) throw new Error(`zip: ${e.name} is encrypted`);
  if (e.localOffset + 30 > buf.length || v.getUint32(e.localOffset, true) !== LOCAL)
    throw new Error(`zip: bad local header of ${e.name}`);
  const start = e.localOffset + 30 + v.getUint16(e.localOffset + 26, true) + v.getUint16(e.localOffset + 28, true);
  if (start + e.compressedSize > buf.length) throw new Error(`zip: ${e.name} extends past the archive`);
  const raw = buf.subarray(start, start + e.compressedSize);
  let data: Uint8Array;
  if (e.method === 0) data = raw;
  else if (e.method === 8) {
    data = inflateSync(raw);
  } else throw new Error(`zip: ${e.name} uses unsupported method ${e.method}`);
  if (data.length !== e.size) throw new Error(`zip: ${e.name} is ${data.length} bytes, not ${e.size}`);
  if (crc32(data) !== e.crc32) throw new Error(`zip: ${e.name} fails its CRC-32`);
  return data;
}
