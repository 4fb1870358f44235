/** `main_repo` of OSS-Fuzz project files as they are written (quoted, unquoted, commented, absent). */
import { describe, expect, it } from 'vitest';
import { mainRepo } from '../../../src/insights/ingest/oss-fuzz.ts';

describe('mainRepo', () => {
  it.each([
    ['main_repo: "https://github.com/curl/curl.git"\n', 'https://github.com/curl/curl.git'],
    ["language: c\nmain_repo: 'https://gitlab.com/a/b'\n", 'https://gitlab.com/a/b'],
    ['main_repo: https://github.com/madler/zlib # upstream\n', 'https://github.com/madler/zlib'],
    ['homepage: x\n  main_repo: "https://github.com/nested/no"\n', ''],
    ['homepage: "https://x"\n', ''],
  ])('%j -> %j', (yaml, repo) => {
    expect(mainRepo(yaml)).toBe(repo);
  });
});
