/**
 * `node tools/compare-zip.ts <archive.zip>`: issue 23's ZIP row. Reads every entry of the archive with
 * src/insights/ingest/zip.ts and with fflate's `unzipSync`, parsing each as JSON, and prints counts and
 * times. The figures in docs/libraries.md used a ZIP64 archive of 70,000 OSV-like entries made with:
 *   python3 -c "import zipfile,json;z=zipfile.ZipFile('osv64.zip','w',zipfile.ZIP_DEFLATED)
 *   [z.writestr(f'PYSEC-{i}.json',json.dumps({'id':f'PYSEC-{i}','summary':'x'*40})) for i in range(70000)];z.close()"
 */
import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { readZipEntry, zipEntries } from '../src/insights/ingest/zip.ts';
const buf = new Uint8Array(readFileSync(process.argv[2]!));
const td = new TextDecoder();
for (let r = 0; r < 2; r++) {
  let t0 = performance.now();
  const es = zipEntries(buf);
  let ok = 0;
  for (const e of es) {
    const d = await readZipEntry(buf, e);
    if (JSON.parse(td.decode(d)).id) ok++;
  }
  console.log('zip.ts   ', es.length, ok, (performance.now() - t0).toFixed(0), 'ms');
  t0 = performance.now();
  try {
    const out = unzipSync(buf);
    let ok2 = 0;
    for (const v of Object.values(out)) if (JSON.parse(td.decode(v)).id) ok2++;
    console.log('fflate   ', Object.keys(out).length, ok2, (performance.now() - t0).toFixed(0), 'ms');
  } catch (e) {
    console.log('fflate throws', String(e));
  }
}
