/**
 * Parser for deps.dev's resolvetest format (../shared/conformance/README.md §2): universes
 * (TAB-indented schema), expected graphs (tabs or tree-drawing prefixes) and tests, including
 * multiverses (`Universe a, id:b` sets the `registries` attr like resolvetest.newMultiverse).
 */
import { readFileSync } from 'node:fs';
import { MemoryClient } from '../../../src/resolve/memory-client.ts';
import type { Attrs, Dependency, Graph, VersionInfo } from '../../../src/resolve/types.ts';
import { addEdge, addError, addNode, canon, newGraph } from '../../../src/resolve/graph.ts';

export const CONFORMANCE = new URL('../../../../shared/conformance/resolve/', import.meta.url).pathname;

const KEYED = new Set([
  'scope',
  'knownas',
  'environment',
  'enableddependencies',
  'framework',
  'mavenclassifier',
  'mavenartifacttype',
  'mavendependencyorigin',
  'mavenexclusions',
  'tags',
  'derivedfrom',
  'registries',
  'redirect',
  'features',
  'supportedframeworks',
  'dependencygroups',
  'ident',
  'created',
]);
const FLAGS = new Set(['dev', 'opt', 'test', 'selector', 'xtest', 'blocked', 'deleted', 'error', 'nativelibrary']);

function readToken(s: string, i: number): [string, number] {
  if (s[i] === '"') {
    let j = i + 1;
    let out = '';
    while (j < s.length && s[j] !== '"') {
      if (s[j] === '\\') j++;
      out += s[j];
      j++;
    }
    return [out, j + 1];
  }
  let j = i;
  while (j < s.length && s[j] !== ' ' && s[j] !== '|') j++;
  return [s.slice(i, j), j];
}

/** Splits `attr attr value|rest` into attrs and rest; no recognised attr prefix -> no attrs. */
export function splitAttrs(s: string): [Attrs, string] {
  const attrs: Attrs = {};
  let i = 0;
  for (;;) {
    while (s[i] === ' ') i++;
    if (s[i] === '|') return [attrs, s.slice(i + 1)];
    const [tok, j0] = readToken(s, i);
    let j = j0;
    const key = tok.toLowerCase();
    if (FLAGS.has(key)) {
      attrs[key] = '';
      i = j;
    } else if (KEYED.has(key)) {
      while (s[j] === ' ') j++;
      const [val, k] = readToken(s, j);
      attrs[key] = val;
      i = k;
    } else return [{}, s];
    if (i >= s.length) return [{}, s];
  }
}

export function splitNameReq(s: string): [string, string] {
  const at = s.indexOf('@', s.startsWith('@') ? 1 : 0);
  if (at < 0) return [s, ''];
  return [s.slice(0, at), s.slice(at + 1)];
}

interface UVersion {
  info: VersionInfo;
  deps: Dependency[];
}
type Universe = UVersion[];

function parseUniverse(lines: string[]): Universe {
  const out: Universe = [];
  let pkg = '';
  let cur: UVersion | null = null;
  for (const raw of lines) {
    const line = raw.replace(/\s*#.*$/, '').replace(/\s+$/, '');
    if (line.trim() === '') continue;
    const depth = /^\t*/.exec(line)![0].length;
    const body = line.slice(depth);
    if (depth === 0) pkg = body.trim();
    else if (depth === 1) {
      const [attrs, v] = splitAttrs(body);
      cur = { info: { name: pkg, version: v.trim(), attrs }, deps: [] };
      out.push(cur);
    } else if (body.startsWith('ATTR:')) {
      const m = /^ATTR:\s*(\S+)\s*(.*)$/.exec(body)!;
      (cur!.info.attrs as Attrs)[m[1]!.toLowerCase()] = m[2]!.replace(/^"(.*)"$/, '$1');
    } else {
      const [attrs, rest] = splitAttrs(body);
      const [name, requirement] = splitNameReq(rest.trim());
      cur!.deps.push({ name, requirement, attrs });
    }
  }
  return out;
}

const TREE = /^(├─ |└─ |│ {2}| {3}|\t)/;

export function parseGraph(lines: string[]): Graph {
  const errors: string[] = [];
  let g: Graph | null = null;
  const stack: number[] = [];
  const labels = new Map<string, number>();
  const pending: (() => void)[] = [];
  for (const raw of lines) {
    if (raw.trim() === '') continue;
    let s = raw.replace(/\s+$/, '');
    let depth = 0;
    for (let m = TREE.exec(s); m; m = TREE.exec(s)) {
      depth++;
      s = s.slice(m[0].length);
    }
    if (/^ERROR:/.test(s)) {
      errors.push(s.slice(6).trim());
      continue;
    }
    if (!g) {
      const rl = /^(\w+): /.exec(s);
      if (rl) s = s.slice(rl[0].length);
      const sp = s.lastIndexOf(' ');
      // the root line may carry a requirement like an edge line (`bob@1.0.0 1.0.0`)
      g = newGraph(splitNameReq(s.slice(0, sp))[0], s.slice(sp + 1));
      stack[0] = 0;
      if (rl) labels.set(rl[1]!, 0);
      continue;
    }
    const from = stack[depth - 1]!;
    let label = '';
    const lm = /^(\w+): /.exec(s);
    if (lm && lm[1] !== 'ERROR') {
      label = lm[1]!;
      s = s.slice(lm[0].length);
    }
    const [attrs, rest0] = splitAttrs(s);
    const rest = rest0.trim(); // `KnownAs "bob" | chuck@1 1.0.0`: the bar may have spaces around it
    const ei = rest.indexOf(' ERROR: ');
    if (ei >= 0) {
      const [name, req] = splitNameReq(rest.slice(0, ei));
      addError(g, from, name, req, rest.slice(ei + 8));
      continue;
    }
    if (rest.startsWith('$')) {
      const [lab, req] = splitNameReq(rest.slice(1));
      pending.push(() => addEdge(g!, from, labels.get(lab)!, req, attrs));
      continue;
    }
    const sp = rest.lastIndexOf(' ');
    const [name, req] = splitNameReq(rest.slice(0, sp));
    const id = addNode(g, name, rest.slice(sp + 1));
    addEdge(g, from, id, req, attrs);
    if (label) labels.set(label, id);
    stack[depth] = id;
  }
  for (const p of pending) p();
  const out = g ?? newGraph('', '');
  out.error = errors.join('\n');
  return out;
}

export interface ResolveCase {
  name: string;
  root: { name: string; version: string };
  client: MemoryClient;
  want: Graph;
  flags: Set<string>;
}

function buildClient(spec: string, universes: Map<string, Universe>): MemoryClient {
  const merged = new Map<string, { u: UVersion; regs: string[] }>();
  for (const part of spec.split(',')) {
    const bits = part.split(':').map((x) => x.trim());
    const [id, uname] = bits.length === 2 ? [bits[0]!, bits[1]!] : ['', bits[0]!];
    for (const u of universes.get(uname) ?? []) {
      const key = `${u.info.name}\u0000${u.info.version}`;
      const prev = merged.get(key);
      merged.set(key, { u, regs: [...(prev?.regs ?? []), id] });
    }
  }
  const c = new MemoryClient();
  for (const { u, regs } of merged.values()) {
    const attrs = { ...u.info.attrs };
    if (regs.length > 1 || regs[0] !== '') {
      let r = [...regs].sort().join(',');
      if (attrs.registries !== undefined) r += `,${attrs.registries}`;
      attrs.registries = r;
    }
    c.addVersion({ ...u.info, attrs }, u.deps);
  }
  return c;
}

/** Parses the concatenation of the given files (relative to CONFORMANCE). */
export function loadCases(...files: string[]): ResolveCase[] {
  const text = files.map((f) => readFileSync(CONFORMANCE + f, 'utf8')).join('\n');
  const lines = text.split('\n');
  const universes = new Map<string, Universe>();
  const graphs = new Map<string, Graph>();
  const tests: { name: string; root: string; universe: string; graph: string; flags: Set<string> }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!.trim();
    const m = /^-- (universe|graph|test) (.+)$/i.exec(l);
    if (!m) continue;
    const block: string[] = [];
    for (i++; i < lines.length && lines[i]!.trim().toLowerCase() !== '-- end'; i++) block.push(lines[i]!);
    const kind = m[1]!.toLowerCase();
    const name = m[2]!.trim();
    if (kind === 'universe') universes.set(name, parseUniverse(block));
    else if (kind === 'graph') graphs.set(name, parseGraph(block));
    else {
      const t = { name, root: '', universe: '', graph: '', flags: new Set<string>() };
      for (const b of block.map((x) => x.trim())) {
        const [k, ...rest] = b.split(/\s+/);
        const v = rest.join(' ');
        switch (k?.toLowerCase()) {
          case 'resolve':
            t.root = v;
            break;
          case 'universe':
            t.universe = v;
            break;
          case 'graph':
            t.graph = v;
            break;
          case 'flag':
            for (const f of rest) t.flags.add(f);
            break;
        }
      }
      tests.push(t);
    }
  }
  return tests.map((t) => {
    const [name, version] = t.root.split(/\s+/);
    return {
      name: t.name,
      root: { name: name!, version: version! },
      client: buildClient(t.universe, universes),
      want: graphs.get(t.graph)!,
      flags: t.flags,
    };
  });
}

/** Text rendering of a canonical graph, for readable diffs. */
export function render(
  g: Graph,
  opts: { selectorsOnly?: boolean; blankEdges?: boolean; keepAttrs?: boolean } = {},
): string[] {
  const c = canon(g);
  const out = c.nodes.map(
    (n, i) =>
      `node ${i} ${n.name} ${n.version}${n.bundled ? ' bundled' : ''}${n.errors.map((e) => ` ERR(${e.name}@${e.requirement}: ${e.message})`).join('')}`,
  );
  for (const e of c.edges) {
    if (opts.selectorsOnly && e.attrs.selector === undefined) continue;
    const a = opts.keepAttrs
      ? ` [${Object.keys(e.attrs)
          .sort()
          .map((k) => (e.attrs[k] ? `${k}=${e.attrs[k]}` : k))
          .join(' ')}]`
      : '';
    out.push(`edge ${e.from} -> ${e.to}${opts.blankEdges ? '' : ` ${JSON.stringify(e.requirement)}${a}`}`);
  }
  if (c.error) out.push(`error ${c.error}`);
  return out;
}
