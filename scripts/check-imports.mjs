#!/usr/bin/env node
// Fails on any import cycle between source files, on any import that runs upward, and on any
// import of another package's file that is not one of its listed entry points:
// packages depend only on those below them, and inside core the shared floor (SQL layer,
// errors, utilities, store) never reaches up into a feature. Run by `npm test`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(process.argv[2] ?? path.join(path.dirname(new URL(import.meta.url).pathname), '..'));

/** Package -> the packages it may import. */
const PACKAGE_DEPS = {
  core: [],
  adapters: ['core'],
  functions: ['core', 'adapters'],
  // The local runtime serves the console: it builds and reads packages/web.
  local: ['core', 'functions', 'adapters', 'web'],
  mcp: ['functions', 'core'],
  cli: ['core', 'functions'],
  web: [],
};
/**
 * Package -> packages it may import types from, and nothing else: the console is a browser
 * bundle, so it reads the route table's response types (`import type`, erased at build) but no
 * service code reaches it.
 */
const TYPE_ONLY_DEPS = {
  web: ['functions'],
};
/** Core's floor: folders every feature may use, which import nothing above the floor. */
const CORE_FLOOR = ['pg', 'errors', 'util', 'store'];
// (store/migrations is not floor: each feature owns its migration file there.)

const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (/\.tsx?$/.test(name) && !/\.d\.ts$/.test(name) && !/\.test\.tsx?$/.test(name)) files.push(p);
  }
};
for (const pkg of readdirSync(path.join(ROOT, 'packages'))) {
  const src = path.join(ROOT, 'packages', pkg, 'src');
  if (existsSync(src)) walk(src);
}

const resolveFile = (base) => {
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return null;
};
const exportsOf = new Map();
const resolveSpecifier = (from, spec) => {
  if (spec.startsWith('.')) return resolveFile(path.resolve(path.dirname(from), spec.replace(/\.js$/, '')));
  const m = /^@dbops\/([^/]+)(?:\/(.*))?$/.exec(spec);
  if (!m) return null;
  const pkgDir = path.join(ROOT, 'packages', m[1]);
  if (!exportsOf.has(m[1])) exportsOf.set(m[1], JSON.parse(readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).exports ?? {});
  const exp = exportsOf.get(m[1]);
  const key = m[2] ? `./${m[2]}` : '.';
  const target = typeof exp[key] === 'string' ? exp[key] : exp['./*'] && m[2] ? exp['./*'].replace('*', m[2]) : null;
  return target ? resolveFile(path.join(pkgDir, target.replace(/\.ts$/, ''))) : null;
};

const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(type\s+)?(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/g;
const DYNAMIC_IMPORT = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;
const graph = new Map();
/** `${file}\0${target}` for every import of a value (not `import type` alone). */
const valueEdges = new Set();
const unlisted = [];
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const deps = new Set();
  const found = [...[...text.matchAll(IMPORT)].map((m) => [m[2], !!m[1]]), ...[...text.matchAll(DYNAMIC_IMPORT)].map((m) => [m[1], false])];
  for (const [spec, typeOnly] of found) {
    const target = resolveSpecifier(file, spec);
    if (target) {
      deps.add(target);
      if (!typeOnly) valueEdges.add(`${file}\0${target}`);
    }
    // A package's public surface is the entry points its package.json lists; anything else is private.
    else if (spec.startsWith('@dbops/'))
      unlisted.push(`not an entry point: ${path.relative(ROOT, file)} imports '${spec}' (list it in that package's "exports", or import its feature's index)`);
  }
  graph.set(file, deps);
}

const rel = (f) => path.relative(ROOT, f);
const pkgOf = (f) => rel(f).split(path.sep)[1];
const coreFolder = (f) => {
  const parts = rel(f).split(path.sep);
  if (parts[1] !== 'core' || parts.length <= 4) return null;
  // The service's schema migrations are per feature (each feature owns its file), not floor.
  return parts[3] === 'store' && parts[4] === 'migrations' ? 'store/migrations' : parts[3];
};

const problems = [...unlisted];
for (const [file, deps] of graph) {
  for (const dep of deps) {
    const from = pkgOf(file);
    const to = pkgOf(dep);
    const typesAllowed = (TYPE_ONLY_DEPS[from] ?? []).includes(to) && !valueEdges.has(`${file}\0${dep}`);
    if (from !== to && !(PACKAGE_DEPS[from] ?? []).includes(to) && !typesAllowed)
      problems.push(
        `upward import: ${rel(file)} -> ${rel(dep)} (${from} may not import ${to}${(TYPE_ONLY_DEPS[from] ?? []).includes(to) ? ' except with `import type`' : ''})`,
      );
    const fromFolder = coreFolder(file);
    const toFolder = coreFolder(dep);
    if (from === 'core' && to === 'core' && CORE_FLOOR.includes(fromFolder) && toFolder !== fromFolder && !CORE_FLOOR.includes(toFolder)) {
      problems.push(
        `upward import: ${rel(file)} -> ${rel(dep)} (core/${fromFolder} is part of the floor and may not import core/${toFolder ?? path.basename(dep)})`,
      );
    }
  }
}

// Cycles: Tarjan's strongly connected components over the file graph.
let counter = 0;
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const strong = (v) => {
  index.set(v, counter);
  low.set(v, counter++);
  stack.push(v);
  onStack.add(v);
  for (const w of graph.get(v) ?? []) {
    if (!graph.has(w)) continue;
    if (!index.has(w)) {
      strong(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
  }
  if (low.get(v) === index.get(v)) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? new Set()).has(v)) problems.push(`import cycle: ${component.map(rel).sort().join(' <-> ')}`);
  }
};
for (const v of graph.keys()) if (!index.has(v)) strong(v);

if (problems.length) {
  console.error(`check-imports: ${problems.length} problem(s)\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(`check-imports: ${graph.size} files, no cycle, no upward import`);
