/**
 * The shell examples of the project's Markdown, as the README test runs them (test/readme/). Pure.
 *
 * An example is a command that talks to the running stack: a `curl ...` or a variable assignment
 * (`B=http://...`, `T=$(curl ... | jq -r .data.token)`), found in order of appearance either as a
 * line of a fenced block (no info string, or sh/bash/shell/console) or as an inline code span in
 * prose (a span may wrap across the lines of a paragraph) or a table cell (`\|` there is a `|`).
 * Assignments use short names (at most 4 letters: B, T, AUTH); `DATABASE_URL=...` documents a setting. Other commands (npm install, npm start,
 * wrangler deploy, env-prefixed commands) are kept with kind `other`: the README test does not run
 * them (CI runs them, see .ci/run). An example declares the non-2xx answers it expects with a
 * trailing comment `# → 404` (several: `# → 200, 409`); without one every curl it makes must
 * answer 2xx. A `<placeholder>` left in an example makes it unrunnable (reported as such).
 */
export interface Example {
  file: string;
  line: number;
  command: string;
  kind: 'curl' | 'assign' | 'other';
  /** Statuses declared by `# → ...`; undefined = any 2xx. */
  expect?: number[];
  /** The variable an assignment sets. */
  variable?: string;
}

/** The examples' shell variables have short names (B, T, H, AUTH); longer ones (DATABASE_URL=...) document settings. */
const ASSIGN = /^([A-Z][A-Z0-9]{0,3})=("[^"]*"|'[^']*'|\$\(.*\)|[^\s'"$]+)$/;
const DECLARED = /#\s*→\s*([\d,\s]+)$/;
const SHELL_FENCE = /^(|sh|bash|shell|console)$/;

function classify(file: string, line: number, raw: string): Example | undefined {
  const command = raw.trim();
  if (!command || command.startsWith('#')) return undefined;
  const declared = DECLARED.exec(command);
  const expect = declared
    ? declared[1]!
        .split(',')
        .map((s) => Number(s.trim()))
        .filter((n) => n >= 100 && n <= 599)
    : undefined;
  const assign = ASSIGN.exec(command);
  if (assign) return { file, line, command, kind: 'assign', variable: assign[1], expect };
  if (/^curl\s/.test(command)) return { file, line, command, kind: 'curl', expect };
  return { file, line, command, kind: 'other', expect };
}

/** Code spans of one line of prose or table: backtick-delimited, `\|` unescaped inside tables. */
function spans(text: string, inTable: boolean): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(`+)([\s\S]*?[^`])\1(?!`)/g)) out.push(inTable ? m[2]!.replace(/\\\|/g, '|') : m[2]!);
  return out;
}

export function extractExamples(markdown: string, file: string): Example[] {
  const out: Example[] = [];
  let fence: { marker: string; shell: boolean } | undefined;
  let para: { line: number; text: string }[] = [];
  const flush = () => {
    // Join the paragraph, remembering where each line starts, so a span wrapped over lines is one span.
    let joined = '';
    const starts: number[] = [];
    for (const p of para) {
      starts.push(joined.length);
      joined += `${p.text} `;
    }
    for (const m of joined.matchAll(/(`+)([\s\S]*?[^`])\1(?!`)/g)) {
      let k = 0;
      while (k + 1 < starts.length && starts[k + 1]! <= m.index!) k++;
      const e = classify(file, para[k]!.line, m[2]!.replace(/\s+/g, ' '));
      if (e && e.kind !== 'other') out.push(e);
    }
    para = [];
  };
  markdown.split('\n').forEach((text, i) => {
    const line = i + 1;
    const f = /^\s*(```+|~~~+)\s*([\w-]*)/.exec(text);
    if (f && (!fence || f[1]!.startsWith(fence.marker))) {
      flush();
      fence = fence ? undefined : { marker: f[1]!, shell: SHELL_FENCE.test(f[2]!) };
      return;
    }
    if (fence) {
      if (fence.shell) {
        const e = classify(file, line, text.replace(/^\s*\$\s+/, ''));
        if (e) out.push(e);
      }
      return;
    }
    if (/^\s*\|/.test(text)) {
      flush();
      for (const s of spans(text, true)) {
        const e = classify(file, line, s);
        if (e && e.kind !== 'other') out.push(e);
      }
      return;
    }
    if (!text.trim() || /^#{1,6}\s/.test(text) || /^\s*[-*]\s/.test(text)) flush();
    if (text.trim()) para.push({ line, text });
  });
  flush();
  return out;
}

/** A `<placeholder>` a reader would have to fill in (none may remain in a runnable example). */
export function placeholder(command: string): string | undefined {
  return /<[a-z][a-z0-9 _:.-]*>/i.exec(command)?.[0];
}

/** Points the documented default addresses at the ports of the stack the test started. */
export function retarget(command: string, ports: Record<number, number>): string {
  return command.replace(/\b(127\.0\.0\.1|localhost):(\d{4,5})\b/g, (m, _host: string, port: string) =>
    ports[Number(port)] !== undefined ? `127.0.0.1:${ports[Number(port)]}` : m,
  );
}
