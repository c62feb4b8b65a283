/**
 * import/no-cycle (eslint-plugin-import 2.32) leaves type-only imports out of its graph with no option to keep
 * them, so a cycle closed by `import type` passes it. A type cycle still ties the modules together: neither side
 * can move, split or be read alone. This rule counts every module a file names: `import` and `import type`,
 * `export … from`, `import('…')` types and calls, and `require`, resolved as the type check resolves them
 * (the root tsconfig's paths). Dependencies outside the project (node_modules, declaration files) end the walk.
 *
 * Loaded by scripts/lint.sh with `--rulesdir eslint-rules`.
 */
'use strict';

const fs = require('fs');
const path = require('path');
const ts = require('typescript');

let compilerOptions = null;

function optionsFor(cwd) {
  if (!compilerOptions) {
    const file = ts.findConfigFile(cwd, ts.sys.fileExists, 'tsconfig.json');
    const parsed = file ? ts.parseJsonConfigFileContent(ts.readConfigFile(file, ts.sys.readFile).config, ts.sys, path.dirname(file)) : null;

    compilerOptions = parsed ? parsed.options : {};
  }

  return compilerOptions;
}

/** Single-file components: TypeScript resolves them to a shim declaration, so their paths are mapped here. */
function vueCandidates(spec, from, options) {
  if (spec.startsWith('.')) {
    return [path.resolve(path.dirname(from), spec)];
  }
  const out = [];

  for (const [pattern, targets] of Object.entries(options.paths || {})) {
    const prefix = pattern.replace(/\*$/, '');

    if (pattern.endsWith('*') && spec.startsWith(prefix)) {
      for (const target of targets) {
        out.push(path.resolve(options.baseUrl || '.', target.replace(/\*$/, '') + spec.slice(prefix.length)));
      }
    }
  }

  return out;
}

function resolve(spec, from, options) {
  if (spec.endsWith('.vue')) {
    return vueCandidates(spec, from, options).find((f) => fs.existsSync(f) && !f.includes(`${ path.sep }node_modules${ path.sep }`)) || null;
  }
  const resolved = ts.resolveModuleName(spec, from, options, ts.sys).resolvedModule;

  if (!resolved || resolved.isExternalLibraryImport || resolved.resolvedFileName.endsWith('.d.ts') ||
      resolved.resolvedFileName.includes(`${ path.sep }node_modules${ path.sep }`)) {
    return null;
  }

  return path.resolve(resolved.resolvedFileName);
}

/** The script blocks of a component with their offsets, or the whole text of any other module. */
function scriptsOf(file, text) {
  if (!file.endsWith('.vue')) {
    return [{ offset: 0, text }];
  }
  const out = [];
  const block = /<script\b[^>]*>([\s\S]*?)<\/script>/g;
  let m;

  while ((m = block.exec(text))) {
    out.push({ offset: m.index + m[0].indexOf('>') + 1, text: m[1] });
  }

  return out;
}

/** Every module a file names, resolved, with where the name stands in the text. */
function importsOf(file, text, options) {
  const out = [];

  for (const script of scriptsOf(file, text)) {
    for (const ref of ts.preProcessFile(script.text, true, true).importedFiles) {
      const target = resolve(ref.fileName, file, options);

      if (target && target !== file) {
        out.push({
          target, spec: ref.fileName, pos: script.offset + ref.pos, end: script.offset + ref.end
        });
      }
    }
  }

  return out;
}

/** A file's dependencies as last read; read again when the file changed (an editor keeps the rule loaded). */
const dependencyCache = new Map();

function dependenciesOf(file, options) {
  let mtime;

  try {
    mtime = fs.statSync(file).mtimeMs;
  } catch (e) {
    return [];
  }
  const cached = dependencyCache.get(file);

  if (cached && cached.mtime === mtime) {
    return cached.targets;
  }
  const targets = [...new Set(importsOf(file, fs.readFileSync(file, 'utf8'), options).map((i) => i.target))];

  dependencyCache.set(file, { mtime, targets });

  return targets;
}

module.exports = {
  meta: {
    type:     'problem',
    docs:     { description: 'Forbid import cycles, type-only imports included' },
    schema:   [],
    messages: { cycle: 'Import cycle, type imports included: {{route}}' },
  },

  create(context) {
    const file = path.resolve(context.getFilename());

    if (!/\.(ts|tsx|js|vue)$/.test(file)) {
      return {};
    }

    return {
      'Program:exit'() {
        const cwd = context.getCwd ? context.getCwd() : process.cwd();
        const options = optionsFor(cwd);
        const sourceCode = context.getSourceCode();
        // Modules a finished search walked without finding the way back: no later import finds it through them.
        const deadEnds = new Set();
        const reported = new Set();

        for (const imp of importsOf(file, sourceCode.text, options)) {
          if (reported.has(imp.target) || deadEnds.has(imp.target)) {
            continue;
          }
          const parent = new Map([[imp.target, null]]);
          const queue = [imp.target];
          let found = null;

          while (queue.length && !found) {
            const current = queue.shift();

            for (const next of dependenciesOf(current, options)) {
              if (next === file) {
                found = current;
                break;
              }
              if (!parent.has(next) && !deadEnds.has(next)) {
                parent.set(next, current);
                queue.push(next);
              }
            }
          }
          if (!found) {
            for (const walked of parent.keys()) {
              deadEnds.add(walked);
            }
            continue;
          }
          const route = [];

          for (let at = found; at; at = parent.get(at)) {
            route.unshift(path.relative(cwd, at));
          }
          reported.add(imp.target);
          context.report({
            loc:       { start: sourceCode.getLocFromIndex(imp.pos), end: sourceCode.getLocFromIndex(imp.end) },
            messageId: 'cycle',
            data:      { route: [path.relative(cwd, file), ...route, path.relative(cwd, file)].join(' → ') },
          });
        }
      },
    };
  },
};
