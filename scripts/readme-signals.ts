/** Writes README's signal-table catalogue from the tables (between its markers). */
import { readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import { CATALOGUE_BEGIN, CATALOGUE_END, signalCatalogueMarkdown } from '../pkg/node-health/engine/signals/catalogue';

const path = join(__dirname, '..', 'README.md');
const readme = readFileSync(path, 'utf8');
const start = readme.indexOf(CATALOGUE_BEGIN);
const end = readme.indexOf(CATALOGUE_END);

if (start < 0 || end < start) {
  throw new Error(`README.md has no ${ CATALOGUE_BEGIN } … ${ CATALOGUE_END } block`);
}
writeFileSync(path, readme.slice(0, start) + signalCatalogueMarkdown() + readme.slice(end + CATALOGUE_END.length));
