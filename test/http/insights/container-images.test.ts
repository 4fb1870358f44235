/**
 * QueryContainerImages fed by its importer (src/insights/container-images.ts): `npm run import --
 * container-images` with a JSON document and with a `docker save` archive, run against the test database;
 * every layer prefix's chain id (OCI image spec: C0 = L0, Ck = sha256(C(k-1) + " " + Lk), computed here with
 * node:crypto) finds the repositories holding it; a re-import replaces a repository's rows; bad input fails.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { chainIds, importContainerImages, splitReference } from '../../../src/insights/container-images.ts';
import { json, useFixtureUpstream } from '../../fixtures/insights/harness.ts';
import { buildTar } from '../../../tools/insights-upstream/tar.ts';
import { stackInfo, testDb } from '../../support/env.ts';

useFixtureUpstream();

const layer = (s: string) => `sha256:${createHash('sha256').update(`layer ${s}`).digest('hex')}`;
const chainOf = (layers: string[]) =>
  layers.reduce((prev, l) => `sha256:${createHash('sha256').update(`${prev} ${l}`).digest('hex')}`);
const [base, mid, app, other] = ['base', 'mid', 'app', 'other'].map(layer) as [string, string, string, string];
const dir = mkdtempSync(join(tmpdir(), 'ci-images-'));
const root = fileURLToPath(new URL('../../../', import.meta.url));
const importFiles = (...files: string[]) =>
  promisify(execFile)(process.execPath, ['tools/import.ts', 'container-images', ...files], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: stackInfo().databaseUrl },
    timeout: 30_000,
  });
const query = (chain: string) => json(`/v3alpha/querycontainerimages/${encodeURIComponent(chain)}`);

beforeAll(async () => {
  await testDb().query(`DELETE FROM insights.container_images WHERE repository LIKE 'ci-%' OR registry = 'ci.example'`);
});

describe('chain ids', () => {
  it('are the OCI spec\'s: the first layer as is, then sha256 of "<previous> <layer>"', async () => {
    expect(await chainIds([base, mid, app])).toEqual([base, chainOf([base, mid]), chainOf([base, mid, app])]);
  });
  it.each([
    ['nginx:1.25', { registry: '', repository: 'nginx' }],
    ['library/nginx', { registry: '', repository: 'library/nginx' }],
    ['ghcr.io/owner/tool:v1', { registry: 'ghcr.io', repository: 'owner/tool' }],
    ['localhost:5000/app@sha256:00', { registry: 'localhost:5000', repository: 'app' }],
  ])('%s -> %j', (ref, want) => expect(splitReference(ref)).toEqual(want));
});

describe('npm run import -- container-images', () => {
  it('a JSON document: each prefix chain finds its repositories, with their Docker metadata', async () => {
    const file = join(dir, 'images.json');
    writeFileSync(
      file,
      JSON.stringify({
        images: [
          {
            repository: 'ci-app',
            registry: 'docker.io',
            diffIds: [base, mid, app],
            dockerMetadata: {
              dateRegistered: '2020-01-02T03:04:05Z',
              lastUpdated: '2025-06-07T08:09:10Z',
              starCount: 12,
              pullCount: 3400,
              isOfficial: false,
            },
          },
          { repository: 'ci-base', diffIds: [base] },
        ],
      }),
    );
    const { stdout } = await importFiles(file);
    expect(stdout).toBe(`[1/1] container images ${file} ... ok (2 repositories, 2 images, 4 chain ids)\n`);
    expect(await query(base)).toEqual({
      results: [
        {
          repository: 'ci-app',
          registry: 'docker.io',
          dockerMetadata: {
            dateRegistered: '2020-01-02T03:04:05Z',
            lastUpdated: '2025-06-07T08:09:10Z',
            starCount: '12',
            pullCount: '3400',
            isOfficial: false,
          },
        },
        { repository: 'ci-base', registry: '' },
      ],
    });
    expect((await query(chainOf([base, mid]))).results.map((r: any) => r.repository)).toEqual(['ci-app']);
    expect((await query(chainOf([base, mid, app]))).results.map((r: any) => r.repository)).toEqual(['ci-app']);
    expect(await query(mid)).toEqual({ results: [] }); // a layer is a chain only as the first one
  });
  it("a docker save archive: the configs' diff ids under each tag; re-importing replaces the repository", async () => {
    const config = (ids: string[]) => ({ architecture: 'amd64', rootfs: { type: 'layers', diff_ids: ids } });
    const tar = buildTar([
      { path: 'blobs/sha256/aaa', content: config([base, other]) },
      { path: 'blobs/sha256/bbb', content: config([base, mid]) },
      { path: 'blobs/sha256/layer', content: 'not json, never read' },
      {
        path: 'manifest.json',
        content: [
          {
            Config: 'blobs/sha256/aaa',
            RepoTags: ['ci.example/team/ci-tool:1', 'ci.example/team/ci-tool:latest'],
            Layers: ['blobs/sha256/layer'],
          },
          { Config: 'blobs/sha256/bbb', RepoTags: ['ci-app:2'], Layers: [] },
          { Config: 'blobs/sha256/bbb', RepoTags: null, Layers: [] },
        ],
      },
    ]);
    const file = join(dir, 'save.tar');
    writeFileSync(file, tar);
    const { stdout } = await importFiles(file);
    expect(stdout).toBe(`[1/1] container images ${file} ... ok (2 repositories, 3 images, 4 chain ids)\n`);
    expect((await query(chainOf([base, other]))).results).toEqual([
      { repository: 'team/ci-tool', registry: 'ci.example' },
    ]);
    // ci-app now holds only [base, mid]: its earlier [base, mid, app] image is gone
    expect(await query(chainOf([base, mid, app]))).toEqual({ results: [] });
    expect((await query(chainOf([base, mid]))).results).toEqual([{ repository: 'ci-app', registry: '' }]);
    expect((await query(base)).results.map((r: any) => r.repository)).toEqual(['ci-app', 'ci-base', 'team/ci-tool']);
  });
  it('refuses a document with a malformed diff id, and a file that is not an archive, naming the file', async () => {
    await expect(
      importContainerImages(testDb(), { images: [{ repository: 'ci-x', diffIds: ['md5:00'] }] }),
    ).rejects.toThrow(/diffIds/);
    const bad = join(dir, 'bad.tar');
    writeFileSync(bad, buildTar([{ path: 'index.json', content: {} }]));
    await expect(importFiles(bad)).rejects.toMatchObject({
      code: 1,
      stdout: `[1/1] container images ${bad} ... failed: not a docker save archive: no manifest.json\n`,
    });
  });
});
