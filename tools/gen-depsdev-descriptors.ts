/**
 * Builds the descriptor set of deps.dev's two API protos (../shared/reference/depsdev-proto/, Apache-2.0)
 * with protoc, for the strict proto3 JSON tests (test/fixtures/insights/depsdev-proto.ts). The set is
 * checked in (test/fixtures/insights/depsdev-descriptors.binpb) so tests need neither protoc nor
 * ../shared at run time; run this again when the reference protos change:
 *   npm run gen:depsdev-descriptors
 * Needs `protoc` (Debian: apt-get install protobuf-compiler, which also brings google/protobuf/*.proto).
 * google/api/annotations.proto, which the protos import for their HTTP bindings, is not in Debian's
 * package: tools/proto/google/api/ holds a minimal stand-in with the published field numbers, so the
 * bindings are in the set (--include_imports) and the tests can enumerate every operation from them.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const REFERENCE = join(ROOT, '../shared/reference/depsdev-proto');
const OUT = join(ROOT, 'test/fixtures/insights/depsdev-descriptors.binpb');

// protoc wants each file at its import path: api/v3/api.proto and api/v3alpha/apiv3alpha.proto, as upstream.
const dir = mkdtempSync(join(tmpdir(), 'depsdev-proto-'));
try {
  execFileSync('mkdir', ['-p', join(dir, 'api/v3'), join(dir, 'api/v3alpha')]);
  copyFileSync(join(REFERENCE, 'v3-api.proto'), join(dir, 'api/v3/api.proto'));
  copyFileSync(join(REFERENCE, 'v3alpha-apiv3alpha.proto'), join(dir, 'api/v3alpha/apiv3alpha.proto'));
  execFileSync(
    'protoc',
    [
      `-I${dir}`,
      `-I${join(ROOT, 'tools/proto')}`,
      '-I/usr/include',
      '--include_imports',
      `--descriptor_set_out=${OUT}`,
      'api/v3/api.proto',
      'api/v3alpha/apiv3alpha.proto',
    ],
    { stdio: 'inherit' },
  );
  console.log(`wrote ${OUT}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
