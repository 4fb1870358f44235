/**
 * The words a licence text is compared by, after SPDX's matching guidelines: case, whitespace,
 * punctuation, quotes, bullets and numbering at a line's start, `(c)`/`©`, http vs https and the
 * British/American spellings of its equivalent-words list do not count. A word is a run of letters or
 * digits, lower-cased; a hyphen splits words ("non-exclusive" is "non exclusive"), as does an
 * apostrophe. The same function reads the templates (tools/gen-licence-templates.ts) and the files, so
 * the two sides always agree. Each word keeps the number of its line (copyright lines are not counted
 * against a file's coverage, match.ts).
 */

/** Spellings that count as one word (SPDX matching guidelines, equivalent words), the left one read as the right. */
const EQUIVALENT: Record<string, string> = {
  acknowledgement: 'acknowledgment',
  analogue: 'analog',
  analyse: 'analyze',
  artefact: 'artifact',
  authorisation: 'authorization',
  authorised: 'authorized',
  calibre: 'caliber',
  cancelled: 'canceled',
  catalogue: 'catalog',
  centre: 'center',
  favour: 'favor',
  fulfil: 'fulfill',
  fulfilment: 'fulfillment',
  https: 'http',
  initialise: 'initialize',
  judgement: 'judgment',
  labelling: 'labeling',
  labour: 'labor',
  licence: 'license',
  licences: 'licenses',
  licenced: 'licensed',
  licencing: 'licensing',
  offence: 'offense',
  organisation: 'organization',
  organise: 'organize',
  practise: 'practice',
  programme: 'program',
  realise: 'realize',
  recognise: 'recognize',
  sublicence: 'sublicense',
  whilst: 'while',
};

/** A bullet or a section number opening a line: `1.`, `1.2.`, `(a)`, `a)`, `ii.`, `-`, `*`, `•`, `>`, `#`. */
const BULLET = /^\s*(?:(?:[-*•+>#=]+|\(?(?:\d{1,3}(?:\.\d{1,3})*|[a-z]|[ivx]{1,5})[.)])\s+)+/i;
const WORD = /[\p{L}\p{N}]+/gu;

export interface Words {
  words: string[];
  /** The line (0-based) of each word. */
  lines: number[];
}

export function licenceWords(text: string): Words {
  const words: string[] = [];
  const lines: number[] = [];
  const rows = text.split(/\r\n|\r|\n/);
  for (let n = 0; n < rows.length; n++) {
    const row = rows[n]!.replace(BULLET, ' ')
      .replace(/\(c\)|©/gi, ' ')
      .replace(/&/g, ' and ')
      .toLowerCase();
    for (const m of row.matchAll(WORD)) {
      words.push(EQUIVALENT[m[0]] ?? m[0]);
      lines.push(n);
    }
  }
  return { words, lines };
}
