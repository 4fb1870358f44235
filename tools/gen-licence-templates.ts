/**
 * `npm run gen:licence-templates`: writes src/insights/licenses/templates-data.ts, the compiled licence
 * templates that Go licence detection matches (src/insights/licenses/match.ts).
 *
 * Two sources, both SPDX License List data:
 *  - tools/licence-templates/*.template.txt: SPDX's own templates (license-list-data `template/`), with
 *    their variable and optional parts, for the short licences where those parts decide the match
 *    (MIT, ISC, 0BSD, BSD-2/3-Clause, MIT-0, Zlib, Unlicense);
 *  - the full texts of the npm package `spdx-license-list` (a devDependency) for the other licences of
 *    GENERATED, marked up here the way SPDX's templates mark theirs: a copyright line, a `<...>` or
 *    `[...]` placeholder and the years a notice quotes become variables, the title lines before the first sentence and the trailer
 *    from "END OF TERMS AND CONDITIONS" / "How to apply" / "Exhibit A" on become optional.
 * The output is committed (the Workers bundle carries the compact programs, not the texts);
 * test/unit/insights/licences.test.ts fails when it drifts from what this would write.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { encodeProgram, parseTemplate } from '../src/insights/licenses/template.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Licences compiled from their SPDX text (besides the hand-kept templates). */
export const GENERATED = [
  'AFL-3.0',
  'AGPL-3.0-only',
  'Apache-1.1',
  'Apache-2.0',
  'Artistic-2.0',
  'BlueOak-1.0.0',
  'BSD-1-Clause',
  'BSD-2-Clause-Patent',
  'BSL-1.0',
  'CC-BY-3.0',
  'CC-BY-4.0',
  'CC-BY-SA-4.0',
  'CC0-1.0',
  'CDDL-1.0',
  'CDDL-1.1',
  'ECL-2.0',
  'EPL-1.0',
  'EPL-2.0',
  'EUPL-1.2',
  'GPL-2.0-only',
  'GPL-3.0-only',
  'HPND',
  'JSON',
  'LGPL-2.0-only',
  'LGPL-2.1-only',
  'LGPL-3.0-only',
  'MPL-1.1',
  'MPL-2.0',
  'MS-PL',
  'MS-RL',
  'MulanPSL-2.0',
  'NCSA',
  'OFL-1.1',
  'OSL-3.0',
  'PostgreSQL',
  'PSF-2.0',
  'Python-2.0',
  'Unicode-3.0',
  'Unicode-DFS-2016',
  'UPL-1.0',
  'W3C',
  'WTFPL',
  'X11',
  'ZPL-2.1',
];

/** Where a text in spdx-license-list goes on with another licence (LGPL-3.0's is followed by all of GPL-3.0). */
const CUT: Record<string, RegExp> = { 'LGPL-3.0-only': /\n\s*GNU GENERAL PUBLIC LICENSE\s*\n\s*Version 3/ };

const VAR = (chars: number) => `<<var;name="v";original="";match=".{0,${chars}}">>`;
const COPYRIGHT_LINE = /^\s*(?:copyright\b|\(c\)|©).{0,200}$/i;
/** A year or a list or range of years (`2001, 2002, 2003`, `2001-2024`): the copyright years a notice quotes. */
const YEARS = /\b(?:19|20)\d\d\b(?:\s*[-,–]\s*(?:19|20)\d\d\b)*/g;
const TRAILER = /^\s*(?:END OF TERMS AND CONDITIONS|APPENDIX|How to Apply These Terms|Exhibit A\b)/i;

/** SPDX template markup for a plain licence text. */
export function markUp(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let body = false;
  let title: string[] = [];
  let trailer = false;
  for (const line of lines) {
    if (!body) {
      const words = line.trim().split(/\s+/).filter(Boolean).length;
      if (words < 8 && !COPYRIGHT_LINE.test(line)) {
        title.push(line);
        continue;
      }
      body = true;
      if (title.some((t) => t.trim())) out.push(`<<beginOptional>>${title.join('\n')}<<endOptional>>`);
      title = [];
    }
    if (!trailer && TRAILER.test(line)) {
      trailer = true;
      out.push('<<beginOptional>>');
    }
    if (COPYRIGHT_LINE.test(line)) out.push(VAR(300));
    else out.push(line.replace(/<[^<>\n]{1,80}>|\[[^[\]\n]{1,80}\]/g, VAR(60)).replace(YEARS, VAR(150)));
  }
  if (!body && title.length) out.push(title.join('\n'));
  if (trailer) out.push('<<endOptional>>');
  return out.join('\n');
}

/** id -> compact program, sorted by id. */
export async function licencePrograms(): Promise<{ programs: Record<string, string>; version: string }> {
  const full = JSON.parse(await readFile(`${ROOT}node_modules/spdx-license-list/spdx-full.json`, 'utf8')) as Record<
    string,
    { licenseText: string }
  >;
  const pkg = JSON.parse(await readFile(`${ROOT}node_modules/spdx-license-list/package.json`, 'utf8')) as {
    version: string;
  };
  const programs: Record<string, string> = {};
  for (const id of GENERATED) {
    const whole = full[id]?.licenseText;
    if (!whole) throw new Error(`spdx-license-list has no text for ${id}`);
    const cut = CUT[id]?.exec(whole)?.index;
    const text = cut === undefined ? whole : whole.slice(0, cut);
    programs[id] = encodeProgram(parseTemplate(markUp(text)));
  }
  const dir = `${ROOT}tools/licence-templates/`;
  for (const f of (await readdir(dir)).filter((n) => n.endsWith('.template.txt')).sort()) {
    programs[f.slice(0, -'.template.txt'.length)] = encodeProgram(parseTemplate(await readFile(dir + f, 'utf8')));
  }
  const sorted = Object.fromEntries(Object.entries(programs).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { programs: sorted, version: `spdx-license-list@${pkg.version}` };
}

export function templatesModule(l: Awaited<ReturnType<typeof licencePrograms>>): string {
  const lines = Object.entries(l.programs).map(([id, p]) => `${id} ${p}`);
  return [
    `/** Generated by \`npm run gen:licence-templates\` from tools/licence-templates/ and ${l.version}: do not edit. */`,
    '/** One licence template a line: its key (an SPDX id, `#variant` for a second template), then its program (template.ts). */',
    `export const TEMPLATES = \`${lines.join('\n')}\`;`,
    '',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = `${ROOT}src/insights/licenses/templates-data.ts`;
  await writeFile(out, templatesModule(await licencePrograms()));
  console.log(`wrote ${out}`);
}
