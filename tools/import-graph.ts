/**
 * The import graph of src/: `node tools/import-graph.ts` prints every import circle (type-only imports
 * included: they tie two files' meanings as much as value imports) and every import across a service
 * boundary that the layering forbids, then exits 1 if there is any. The test beside it (and so
 * `npm test`) holds them at zero.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const SPECIFIER = /(?:^|\n)\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/g;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (path.endsWith('.ts') && !path.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Each file of `srcDir` (relative to `root`, with `/`) and the project files it imports. */
export function importGraph(root: string, srcDir = 'src'): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const rel = (p: string) => relative(root, p).split(sep).join('/');
  for (const file of sourceFiles(join(root, srcDir))) {
    const text = readFileSync(file, 'utf8');
    const deps = new Set<string>();
    for (const m of text.matchAll(SPECIFIER)) {
      const spec = m[1]!;
      if (spec.startsWith('.')) deps.add(rel(resolve(dirname(file), spec)));
    }
    graph.set(rel(file), [...deps]);
  }
  return graph;
}

/** The import circles: strongly connected components of more than one file, or a file importing itself. */
export function importCircles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) circles.push(scc.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return circles;
}

/**
 * Imports the layering forbids: src/webhooks delivers every service's events and so imports none of
 * the services (they publish through src/platform/events.ts); src/platform, src/resolve and
 * src/versions are below every service.
 */
const FORBIDDEN: [from: RegExp, to: RegExp][] = [
  [/^src\/webhooks\//, /^src\/(marketplace|pipeline|insights)\//],
  [/^src\/(platform|resolve|versions)\//, /^src\/(marketplace|pipeline|insights|webhooks)\//],
];

export function forbiddenImports(graph: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const [file, deps] of graph)
    for (const dep of deps)
      if (FORBIDDEN.some(([from, to]) => from.test(file) && to.test(dep))) out.push(`${file} -> ${dep}`);
  return out.sort();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const graph = importGraph(fileURLToPath(new URL('..', import.meta.url)));
  const circles = importCircles(graph);
  const forbidden = forbiddenImports(graph);
  for (const c of circles) console.log(`circle: ${c.join(' <-> ')}`);
  for (const f of forbidden) console.log(`forbidden: ${f}`);
  console.log(`import graph: ${graph.size} files, ${circles.length} circles, ${forbidden.length} forbidden imports`);
  process.exit(circles.length || forbidden.length ? 1 : 0);
}
