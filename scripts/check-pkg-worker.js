#!/usr/bin/env node
/**
 * After `yarn build-pkg node-health`: checks that the extension bundle carries the tab's Web Worker inline, as
 * worker-loader builds it (pkg/node-health/worker-build.js): a script in a string, started from a Blob, holding
 * the session and the engine. A worker emitted as a file of its own would not start from the URL Rancher serves
 * the extension from (another origin than the page's), and the tab would diagnose on the page.
 *   node scripts/check-pkg-worker.js [dist-pkg/node-health-<version>]
 */
const { readdirSync, readFileSync } = require('fs');
const { join } = require('path');

const root = join(__dirname, '..');
const version = require(join(root, 'pkg/node-health/package.json')).version;
const dir = process.argv[2] || join(root, 'dist-pkg', `node-health-${ version }`);
const scripts = readdirSync(dir).filter((f) => f.endsWith('.js'));
/**
 * worker-loader's inline call: the worker's source as a string literal, then "Worker" (the constructor it uses).
 * The literal is found from its end, back to the quote that opens it.
 */
function inlineWorker(text) {
  for (const end of [text.indexOf(`',"Worker"`), text.indexOf(`","Worker"`)].filter((i) => i >= 0)) {
    const quote = text[end];

    for (let i = end - 1; i >= 0; i--) {
      if (text[i] === quote) {
        let slashes = 0;

        while (text[i - 1 - slashes] === '\\') {
          slashes++;
        }
        if (slashes % 2 === 0) {
          return text.slice(i + 1, end);
        }
      }
    }
  }

  return null;
}
const problems = [];
let found = null;

for (const file of scripts) {
  const source = inlineWorker(readFileSync(join(dir, file), 'utf8'));

  if (source) {
    found = { file, source };
    break;
  }
}
if (!found) {
  problems.push(`no inline worker in ${ scripts.join(', ') }`);
} else {
  // What the worker must hold: the session's protocol, Steve's watch, and the engine's rules.
  for (const text of ['the session is not set up', 'resource.changes', 'etcd-removal-hook-blocked', 'agent-never-checked-in']) {
    if (!found.source.includes(text)) {
      problems.push(`the inline worker in ${ found.file } lacks ${ JSON.stringify(text) }`);
    }
  }
}
if (scripts.some((f) => /\.worker\.js$/.test(f))) {
  problems.push(`a worker was emitted as a file of its own: ${ scripts.filter((f) => /\.worker\.js$/.test(f)).join(', ') }`);
}
if (problems.length) {
  process.stderr.write(`check-pkg-worker: ${ problems.join('\n') }\n`);
  process.exit(1);
}
process.stdout.write(`check-pkg-worker: ${ found.file } starts the tab's worker from a Blob (${ Math.round(found.source.length / 1024) } KB inline)\n`);
