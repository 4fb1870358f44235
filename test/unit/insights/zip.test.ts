/** The ZIP reader behind the OSV bulk import, over archives built by tools/insights-upstream/zip.ts. */
import { describe, expect, it } from 'vitest';
import { crc32, readZipEntry, zipEntries } from '../../../src/insights/ingest/zip.ts';
import { buildZip } from '../../../tools/insights-upstream/zip.ts';

const FILES = [
  { name: 'A-1.json', content: { id: 'A-1', summary: 'x'.repeat(2000) } },
  { name: 'B-2.json', content: '{"id":"B-2"}', method: 0 as const },
  { name: 'dir/é.txt', content: 'héllo' },
];

async function read(zip: Uint8Array) {
  return Promise.all(
    zipEntries(zip).map(async (e) => [e.name, e.method, new TextDecoder().decode(await readZipEntry(zip, e))]),
  );
}

describe('zip reader', () => {
  it.each([
    ['classic', {}],
    ['ZIP64 (end record, locator, 0x0001 extra fields)', { zip64: true }],
    ['with an archive comment', { comment: 'PK\u0005\u0006 looks like an end record' }],
  ])('%s', async (_, opts) => {
    expect(await read(buildZip(FILES, opts))).toEqual([
      ['A-1.json', 8, JSON.stringify(FILES[0]!.content)],
      ['B-2.json', 0, '{"id":"B-2"}'],
      ['dir/é.txt', 8, 'héllo'],
    ]);
  });

  it('crc32 of "123456789" is the check value cbf43926', () => {
    expect(crc32(new TextEncoder().encode('123456789')).toString(16)).toBe('cbf43926');
  });

  it.each([
    ['not a zip', new Uint8Array(100), 'zip: no end of central directory'],
    [
      'cut at the front (offsets past the end)',
      buildZip(FILES).subarray(40),
      'zip: central directory outside the archive',
    ],
    [
      'a damaged central entry',
      (() => {
        const z = buildZip(FILES);
        z[findCentral(z, 'B-2.json')] = 0;
        return z;
      })(),
      'zip: bad central directory entry 1',
    ],
  ])('rejects %s', (_, zip, err) => {
    expect(() => zipEntries(zip)).toThrow(new Error(err));
  });

  it.each([
    [
      'a CRC-32 mismatch',
      (z: Uint8Array) => {
        const v = new DataView(z.buffer);
        const at = findCentral(z, 'A-1.json');
        v.setUint32(at + 16, v.getUint32(at + 16, true) ^ 1, true);
      },
      /CRC-32/,
    ],
    [
      'an unsupported method',
      (z: Uint8Array) => {
        new DataView(z.buffer).setUint16(findCentral(z, 'A-1.json') + 10, 12, true);
      },
      /unsupported method 12/,
    ],
    [
      'an encrypted entry',
      (z: Uint8Array) => {
        new DataView(z.buffer).setUint16(findCentral(z, 'A-1.json') + 8, 1, true);
      },
      /encrypted/,
    ],
    [
      'a wrong size',
      (z: Uint8Array) => {
        const v = new DataView(z.buffer);
        const at = findCentral(z, 'A-1.json');
        v.setUint32(at + 24, v.getUint32(at + 24, true) + 1, true);
      },
      /bytes, not/,
    ],
  ])('an entry with %s fails to read', async (_, damage, err) => {
    const z = buildZip(FILES);
    damage(z);
    const e = zipEntries(z).find((x) => x.name === 'A-1.json')!;
    await expect(readZipEntry(z, e)).rejects.toThrow(err);
  });
});

function findCentral(z: Uint8Array, name: string): number {
  const v = new DataView(z.buffer, z.byteOffset, z.byteLength);
  for (let i = 0; i + 46 <= z.length; i++) {
    if (
      v.getUint32(i, true) === 0x02014b50 &&
      new TextDecoder().decode(z.subarray(i + 46, i + 46 + v.getUint16(i + 28, true))) === name
    )
      return i;
  }
  throw new Error(`no central entry ${name}`);
}
