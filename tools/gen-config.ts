/** Writes `.dev.vars.example` and the README's configuration table from the declarations (tools/config-docs.ts). */
import { readFileSync, writeFileSync } from 'node:fs';
import { renderDevVars, withTable } from './config-docs.ts';

const root = new URL('..', import.meta.url);
writeFileSync(new URL('.dev.vars.example', root), renderDevVars());
const readme = new URL('README.md', root);
writeFileSync(readme, withTable(readFileSync(readme, 'utf8')));
console.log('wrote .dev.vars.example and the configuration table of README.md');
