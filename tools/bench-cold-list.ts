/**
 * Writes tools/bench-cold-packages.txt, the packages `npm run bench:cold` reads: the 100 npm packages
 * most depended upon within the recorded resolution corpus (tools/universes/npm-corpus/, 2,000+
 * packuments npm itself fetched for real projects). Rule: for each package of the corpus, the latest
 * version's dependencies, optionalDependencies and peerDependencies name some packages; a package's
 * count is the number of corpus packages naming it; ties are broken by name. Read from the repository
 * only (no registry is asked). Usage: node tools/bench-cold-list.ts
 */
import { writeFileSync } from 'node:fs';
import { loadCorpus } from './universes/npm-corpus.ts';

const { packuments } = loadCorpus();
const dependents = new Map<string, number>();
for (const p of Object.values(packuments)) {
  const latest = p['dist-tags']?.latest;
  const m = latest ? p.versions?.[latest] : undefined;
  if (!m) continue;
  const names = new Set([
    ...Object.keys(m.dependencies ?? {}),
    ...Object.keys(m.optionalDependencies ?? {}),
    ...Object.keys(m.peerDependencies ?? {}),
  ]);
  for (const n of names) dependents.set(n, (dependents.get(n) ?? 0) + 1);
}
const top = [...dependents]
  .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
  .slice(0, 100)
  .map(([n, c]) => `${n}\t${c}`);
const header = [
  '# The 100 npm packages most depended upon within tools/universes/npm-corpus/ (written by',
  '# tools/bench-cold-list.ts: dependents = corpus packages whose latest version names it in',
  '# dependencies, optionalDependencies or peerDependencies; ties by name). name<TAB>dependents',
];
writeFileSync(new URL('./bench-cold-packages.txt', import.meta.url), `${[...header, ...top].join('\n')}\n`);
console.log(`wrote ${top.length} packages`);
