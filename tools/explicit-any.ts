/**
 * Every `any` written in the source: `node tools/explicit-any.ts [dir ...]` (default src/) lists each
 * with its file, line and the type it is part of. Parsed with the TypeScript compiler API, so only the
 * `any` keyword counts (`: any`, `as any`, `any[]`, `Record<string, any>`, a default type argument),
 * not the word in a comment or a string. The ones src/ keeps are listed with their reasons in
 * docs/platform.md ("Explicit any"); test/unit/tools/explicit-any.test.ts holds src/ to that list.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { sourceFiles } from './longest-functions.ts';

export interface AnyUse {
  file: string;
  line: number;
  /** The type the keyword is part of, e.g. `Record<string, any>`. */
  in: string;
}

export function anyUses(file: string, text = readFileSync(file, 'utf8')): AnyUse[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: AnyUse[] = [];
  const visit = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.AnyKeyword) {
      const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
      out.push({ file, line, in: node.parent.getText(sf).replace(/\s+/g, ' ').slice(0, 80) });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const dirs = process.argv.slice(2);
  const uses = (dirs.length ? dirs : ['src']).flatMap((d) => sourceFiles(`${root}${d}`)).flatMap((f) => anyUses(f));
  for (const u of uses) console.log(`${u.file.slice(root.length)}:${u.line}  ${u.in}`);
  console.log(`${uses.length} any`);
}
