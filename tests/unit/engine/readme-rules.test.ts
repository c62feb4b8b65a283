import { readFileSync } from 'fs';
import { join } from 'path';
import { RULE_IDS } from '@pkg/node-health/engine';
import { signalCatalogueMarkdown } from '@pkg/node-health/engine/signals/catalogue';

// The README's rules table is the admin's catalogue: a rule it does not list is one nobody can look up.
const README = readFileSync(join(__dirname, '../../../README.md'), 'utf8');
const TABLE_ROWS = new Set([...README.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]));

describe("README's rules table", () => {
  it.each(RULE_IDS)('has a row for %s', (id) => {
    expect(TABLE_ROWS.has(id)).toBe(true);
  });

  it('has no row for a rule the engine does not have', () => {
    expect([...TABLE_ROWS].filter((id) => !RULE_IDS.includes(id))).toStrictEqual([]);
  });
});

describe("README's signal tables", () => {
  it('are the tables as the engine has them (npm run -s readme:signals)', () => {
    expect(README.includes(signalCatalogueMarkdown())).toBe(true);
  });
});
