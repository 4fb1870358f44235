/**
 * `node tools/compare-spdx.ts`: issue 23's SPDX row. Runs src/insights/ingest/licenses.ts and the npm
 * library `spdx-expression-parse` over one corpus (every SPDX id, deprecated id and exception from the
 * installed `spdx-license-ids`/`spdx-exceptions`, canonical and lower-cased, plus compound expressions)
 * and prints each one's pass rate and time per expression. SPDX_BASELINE=<path to another licenses.ts>
 * adds a third column (used to measure the hand-written list this module had before).
 */
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { spdxLists } from './gen-spdx-ids.ts';

type Case = { text: string; want: string };
const l = await spdxLists();
const exact: Case[] = [
  ...[...l.ids, ...l.deprecated].map((id) => ({ text: id, want: id })),
  ...l.exceptions.map((e) => ({ text: `GPL-2.0-or-later WITH ${e}`, want: `GPL-2.0-or-later WITH ${e}` })),
  ...l.ids
    .slice(0, 100)
    .map((id, i) => ({ text: `(${id} OR MIT) AND ${l.ids[i + 100]}+`, want: `(${id} OR MIT) AND ${l.ids[i + 100]}+` })),
];
const lower: Case[] = exact.map((c) => ({ text: c.text.toLowerCase(), want: c.want }));

const library = createRequire(import.meta.url)('spdx-expression-parse') as (s: string) => unknown;
const libOk = (c: Case): boolean => {
  try {
    library(c.text);
    return true;
  } catch {
    return false;
  }
};
const mod = async (p: string): Promise<(c: Case) => boolean> => {
  const m = (await import(resolve(p))) as { normalizeLicense: (t: string) => string };
  return (c) => m.normalizeLicense(c.text) === c.want;
};
const impls: [string, (c: Case) => boolean][] = [
  ['licenses.ts', await mod('src/insights/ingest/licenses.ts')],
  ['spdx-expression-parse', libOk],
];
if (process.env.SPDX_BASELINE) impls.push(['baseline', await mod(process.env.SPDX_BASELINE)]);

for (const [name, ok] of impls) {
  const rate = (cs: Case[]): string => `${cs.filter(ok).length}/${cs.length}`;
  const all = [...exact, ...lower];
  for (let i = 0; i < 20; i++) all.forEach(ok); // warm-up
  const rounds = 20;
  const t0 = performance.now();
  for (let i = 0; i < rounds; i++) all.forEach(ok);
  const us = ((performance.now() - t0) * 1000) / (rounds * all.length);
  console.log(
    `${name.padEnd(22)} canonical ${rate(exact).padStart(9)}  lower-cased ${rate(lower).padStart(9)}  ${us.toFixed(2)} µs/expr`,
  );
}
