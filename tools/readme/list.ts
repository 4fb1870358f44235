/** `node tools/readme/list.ts README.md docs/*.md`: the examples the README test finds, with kind and declared statuses. */
import { readFileSync } from 'node:fs';
import { extractExamples } from './examples.ts';
for (const f of process.argv.slice(2))
  for (const e of extractExamples(readFileSync(f, 'utf8'), f))
    console.log(`${e.file}:${e.line} [${e.kind}${e.expect ? ` ${e.expect}` : ''}] ${e.command.slice(0, 120)}`);
