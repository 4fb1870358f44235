/**
 * The importer behind QueryContainerImages (migrations/0160_container_images.sql): image repositories and
 * the diff ids of their images in, one row per (chain id of every layer prefix, repository) out, so a
 * query by any prefix chain is one index lookup. Chain ids follow the OCI image spec (config.md, "Layer
 * ChainID"): C0 = L0, Ck = "sha256:" + hex(sha256(C(k-1) + " " + Lk)).
 *
 * Two inputs, both local (`npm run import -- container-images <file>...`, tools/import.ts):
 * - a JSON document `{images: [{repository, registry?, diffIds: ["sha256:..."], dockerMetadata?:
 *   {dateRegistered?, lastUpdated?, starCount?, pullCount?, isOfficial?}}]}` (`imagesDocument`), the form a
 *   registry crawler would write; several images of one repository (its tags) are merged;
 * - a `docker save` archive (`.tar`, legacy or OCI layout): its `manifest.json` names each image's config
 *   and tags; the config's `rootfs.diff_ids` are the layers (`imagesFromDockerSave`).
 * Importing a repository replaces all its rows (its images as the input lists them now).
 *
 * Where production data would come from: Docker Hub's repository listing (`/v2/repositories/{namespace}`,
 * with star/pull counts, registration and update dates, official flag) and, per tag, the manifest and config
 * blob through the Distribution API (`/v2/{name}/manifests/{tag}`, `/v2/{name}/blobs/{digest}`), whose
 * `rootfs.diff_ids` give the layers; that crawler writes the JSON document above. Not run from here.
 */
import * as z from 'zod';
import type { Db } from '../platform/db.ts';
import { sha256Hex } from '../platform/crypto.ts';
import { readTar } from './ingest/npm-tarball.ts';

const digest = z.string().regex(/^sha256:[0-9a-f]{64}$/);
const image = z.object({
  repository: z.string().min(1),
  registry: z.string().default(''),
  diffIds: z.array(digest).min(1),
  dockerMetadata: z
    .object({
      dateRegistered: z.iso.datetime({ offset: true }).optional(),
      lastUpdated: z.iso.datetime({ offset: true }).optional(),
      starCount: z.coerce.number().int().min(0).optional(),
      pullCount: z.coerce.number().int().min(0).optional(),
      isOfficial: z.boolean().optional(),
    })
    .optional(),
});
export const imagesDocument = z.object({ images: z.array(image) });
export type ImageInput = z.input<typeof image>;

/** The chain id of every prefix of the layers, in order (the last is the image's own chain id). */
export async function chainIds(diffIds: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const layer of diffIds) {
    const prev = out[out.length - 1];
    out.push(prev === undefined ? layer : `sha256:${await sha256Hex(`${prev} ${layer}`)}`);
  }
  return out;
}

export interface ImportResult {
  repositories: number;
  images: number;
  rows: number;
}

/** Stores the images (validated), replacing the rows of every repository they name. */
export async function importContainerImages(db: Db, input: unknown): Promise<ImportResult> {
  const { images } = imagesDocument.parse(input);
  const rows = new Map<string, Record<string, unknown>>();
  for (const img of images) {
    const meta = img.dockerMetadata ?? {};
    for (const chain of await chainIds(img.diffIds)) {
      rows.set(`${chain} ${img.repository}`, {
        chain_id: chain,
        repository: img.repository,
        registry: img.registry,
        date_registered: meta.dateRegistered ?? null,
        last_updated: meta.lastUpdated ?? null,
        star_count: meta.starCount ?? null,
        pull_count: meta.pullCount ?? null,
        is_official: meta.isOfficial ?? null,
      });
    }
  }
  const repositories = [...new Set(images.map((i) => i.repository))];
  await db.transaction(async (tx) => {
    await tx.query('DELETE FROM insights.container_images WHERE repository = ANY($1::text[])', [repositories]);
    await tx.query(
      `INSERT INTO insights.container_images (chain_id, repository, registry, date_registered,
      last_updated, star_count, pull_count, is_official)
    SELECT x.chain_id, x.repository, x.registry, x.date_registered, x.last_updated, x.star_count, x.pull_count,
      x.is_official
    FROM json_to_recordset($1::json) AS x(chain_id text, repository text, registry text, date_registered timestamptz,
      last_updated timestamptz, star_count bigint, pull_count bigint, is_official boolean)
    ON CONFLICT (chain_id, repository) DO UPDATE SET registry = EXCLUDED.registry,
      date_registered = EXCLUDED.date_registered, last_updated = EXCLUDED.last_updated,
      star_count = EXCLUDED.star_count, pull_count = EXCLUDED.pull_count, is_official = EXCLUDED.is_official`,
      [JSON.stringify([...rows.values()])],
    );
  });
  return { repositories: repositories.length, images: images.length, rows: rows.size };
}

/** `registry.example/owner/name:tag` -> registry and repository (Docker Hub's short names keep no registry). */
export function splitReference(ref: string): { registry: string; repository: string } {
  const noDigest = ref.split('@')[0]!;
  const slash = noDigest.lastIndexOf('/');
  const colon = noDigest.lastIndexOf(':');
  const name = colon > slash ? noDigest.slice(0, colon) : noDigest;
  const first = name.split('/')[0]!;
  const hasRegistry = name.includes('/') && (first.includes('.') || first.includes(':') || first === 'localhost');
  return hasRegistry
    ? { registry: first, repository: name.slice(first.length + 1) }
    : { registry: '', repository: name };
}

/**
 * The images of a `docker save` archive (`open()` streams it; read twice: first `manifest.json`, then the
 * configs it names), one per tagged repository; untagged images are skipped.
 */
export async function imagesFromDockerSave(
  open: () => ReadableStream<Uint8Array>,
  maxBytes = 2 ** 40,
): Promise<ImageInput[]> {
  const text = (d: Uint8Array) => new TextDecoder().decode(d);
  let manifest: { Config?: string; RepoTags?: string[] | null }[] | null = null;
  for await (const f of readTar(open(), (p) => p === 'manifest.json', maxBytes)) manifest = JSON.parse(text(f.data));
  if (!Array.isArray(manifest)) throw new Error('not a docker save archive: no manifest.json');
  const configs = new Set(manifest.map((m) => m.Config).filter((c): c is string => typeof c === 'string'));
  const diffIds = new Map<string, string[]>();
  for await (const f of readTar(open(), (p) => configs.has(p), maxBytes)) {
    diffIds.set(f.path, JSON.parse(text(f.data))?.rootfs?.diff_ids ?? []);
  }
  return manifest.flatMap((m) =>
    (m.RepoTags ?? []).map((tag) => ({
      ...splitReference(tag),
      diffIds: diffIds.get(m.Config ?? '') ?? [],
    })),
  );
}
