/**
 * `npm run import -- <system> <name>...`: ingests packages (and their OSV advisories) from the
 * configured upstreams (NPM_REGISTRY_URL, PYPI_URL, ... from the environment; defaults are the
 * public registries) into DATABASE_URL (default: the local stack), one line of progress per package.
 * `npm run import -- osv <ecosystem>...`: every OSV record of each ecosystem from
 * `{OSV_BULK_URL}/{ecosystem}/all.zip` (`npm`, `pypi`, `crates.io`, ... in any case), with a
 * running count.
 * `npm run import -- container-images <file>...`: image repositories for QueryContainerImages from local
 * files, each a JSON document `{images: [{repository, registry?, diffIds, dockerMetadata?}]}` or a
 * `docker save` archive (`.tar`); see src/insights/container-images.ts.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import pg from 'pg';
import { imagesFromDockerSave, importContainerImages } from '../src/insights/container-images.ts';
import { importOsvEcosystem } from '../src/insights/osv-bulk.ts';
import { ingestPackage } from '../src/insights/read-through.ts';
import { SYSTEMS, type System } from '../src/versions/index.ts';
import { pgDb } from './seed/insights.ts';
import { LOCAL } from './stack/config.ts';

const [systemArg, ...names] = process.argv.slice(2);
const osv = String(systemArg ?? '').toLowerCase() === 'osv';
const images = String(systemArg ?? '').toLowerCase() === 'container-images';
const system = String(systemArg ?? '').toUpperCase() as System;
if ((!osv && !images && !SYSTEMS.includes(system)) || names.length === 0) {
  console.error(
    `usage: npm run import -- <${SYSTEMS.join('|').toLowerCase()}> <name>...\n` +
      '       npm run import -- osv <ecosystem>...\n' +
      '       npm run import -- container-images <images.json|docker-save.tar>...',
  );
  process.exit(2);
}
const client = new pg.Client({ connectionString: process.env.DATABASE_URL ?? LOCAL.databaseUrl });
await client.connect();
let failed = 0;
try {
  const db = pgDb(client);
  for (const [i, name] of osv ? names.entries() : []) {
    const started = Date.now();
    process.stdout.write(`[${i + 1}/${names.length}] OSV ${name} ... `);
    try {
      const r = await importOsvEcosystem(process.env, db, name, (n) => process.stdout.write(`${n} `));
      for (const s of r.skipped) console.warn(`\n  skipped ${s.name}: ${s.reason}`);
      console.log(`ok (${r.ecosystem}: ${r.stored} records, ${r.skipped.length} skipped, ${Date.now() - started} ms)`);
    } catch (err) {
      failed++;
      console.log(`failed: ${(err as Error).message}`);
    }
  }
  for (const [i, file] of images ? names.entries() : []) {
    process.stdout.write(`[${i + 1}/${names.length}] container images ${file} ... `);
    try {
      const stream = () => Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>;
      const doc = /\.tar$/i.test(file)
        ? { images: await imagesFromDockerSave(stream) }
        : JSON.parse(readFileSync(file, 'utf8'));
      const r = await importContainerImages(db, doc);
      console.log(`ok (${r.repositories} repositories, ${r.images} images, ${r.rows} chain ids)`);
    } catch (err) {
      failed++;
      console.log(`failed: ${(err as Error).message}`);
    }
  }
  for (const [i, name] of osv || images ? [] : names.entries()) {
    const started = Date.now();
    process.stdout.write(`[${i + 1}/${names.length}] ${system} ${name} ... `);
    try {
      const stored = await ingestPackage(process.env, db, system, name);
      console.log(stored === null ? 'not found upstream' : `ok (${stored}, ${Date.now() - started} ms)`);
      if (stored === null) failed++;
    } catch (err) {
      failed++;
      console.log(`failed: ${(err as Error).message}`);
    }
  }
} finally {
  await client.end();
}
process.exit(failed ? 1 : 0);
