/**
 * The longest functions per folder: `node tools/longest-functions.ts [--top N] [dir ...]` (default:
 * the top 3 of every folder under src/ and tools/). A function is any declaration, method,
 * constructor, accessor, arrow function or function expression, measured in source lines from its
 * first to its last line (a nested function counts inside its parent too, and on its own). Folders
 * are `src/<service>` and `tools/<folder>` (`tools` for the commands at its top). Parsed with the
 * TypeScript compiler API, so strings and comments that look like code are not counted as functions.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

export interface FunctionLength {
  file: string;
  name: string;
  line: number;
  lines: number;
}

export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (path.endsWith('.ts') && !path.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** The name a reader would search for: the declaration's, or what the function is assigned to. */
function nameOf(node: ts.Node, sf: ts.SourceFile): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name) return named.name.getText(sf);
  if (ts.isConstructorDeclaration(node)) return `${nameOf(node.parent, sf)}.constructor`;
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return parent.name.getText(sf);
  }
  if (ts.isCallExpression(parent)) return `<callback of ${parent.expression.getText(sf).slice(0, 40)}>`;
  return '<anonymous>';
}

function isFunctionLike(node: ts.Node): boolean {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node)
  );
}

export function functionLengths(file: string, text = readFileSync(file, 'utf8')): FunctionLength[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: FunctionLength[] = [];
  const visit = (node: ts.Node) => {
    if (isFunctionLike(node)) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      out.push({ file, name: nameOf(node, sf), line: start + 1, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** `src/<service>` or `tools/<folder>`; a file directly under a root belongs to the root. */
export function folderOf(file: string, base: string): string {
  const parts = relative(base, file).split(sep);
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

function main(argv: string[]): void {
  let top = 3;
  const dirs: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--top') top = Number(argv[++i]);
    else dirs.push(argv[i]!);
  }
  if (!Number.isInteger(top) || top < 1) throw new Error('--top takes a positive integer');
  const base = process.cwd();
  const byFolder = new Map<string, FunctionLength[]>();
  for (const dir of dirs.length ? dirs : ['src', 'tools']) {
    for (const file of sourceFiles(join(base, dir))) {
      for (const f of functionLengths(file)) {
        const folder = folderOf(file, base);
        byFolder.set(folder, [...(byFolder.get(folder) ?? []), f]);
      }
    }
  }
  for (const folder of [...byFolder.keys()].sort()) {
    console.log(folder);
    const longest = byFolder
      .get(folder)!
      .sort((a, b) => b.lines - a.lines)
      .slice(0, top);
    for (const f of longest) {
      console.log(`  ${String(f.lines).padStart(4)}  ${f.name}  ${relative(base, f.file)}:${f.line}`);
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) main(process.argv.slice(2));
