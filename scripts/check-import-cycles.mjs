#!/usr/bin/env node
// Fails when modules import each other in a loop. Each folder src/modules/<name> is one module
// and one node of the graph; what lies outside them (app.ts, context.ts, http/, db/, cli/,
// modules/routes.ts) assembles the modules or serves them all and is not part of it (db/database.ts
// names every module's tables, and every module reads the database through it). A loop between two
// modules means neither can be read, tested or changed without the other, and in ESM it means one
// of them runs against the other's half-initialised bindings; docs/architecture.md gives the order
// the modules keep instead.
//   node scripts/check-import-cycles.mjs [source root]          exit 1 and each loop, or exit 0 and a summary
//   node scripts/check-import-cycles.mjs [source root] --order  the modules in dependency order, each with what it imports
// Only relative specifiers are followed (packages cannot import the project back); test code
// (named as the build names it, scripts/build-server.mjs) is left out: it is not part of the service.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isTestCode } from './build-server.mjs';

const args = process.argv.slice(2);
const printOrder = args.includes('--order');
const root = resolve(args.find((arg) => !arg.startsWith('--')) ?? fileURLToPath(new URL('../src/', import.meta.url)));

const isCode = (path) => /\.(ts|mts|mjs)$/.test(path) && !path.endsWith('.d.ts') && !isTestCode(path);
const walk = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)]));
const shown = (path) => relative(process.cwd(), path) || '.';

/** `modules/users/users.service.ts` → `users`; a file outside the modules → null. */
function moduleOf(file) {
  const parts = relative(root, file).split(sep);
  return parts[0] === 'modules' && parts.length > 2 ? parts[1] : null;
}

// Statements start a line (a commented-out import or one quoted in a doc comment does not); a
// static import may run over several lines up to its `from`. Dynamic imports count wherever they
// are: the module still needs the other at run time.
const IMPORT_PATTERNS = [
  /^[ \t]*(?:import|export)\b[^;'"`]*?\bfrom\s*(['"])([^'"\n]+)\1/gm,
  /^[ \t]*import\s*(['"])([^'"\n]+)\1/gm,
  /\bimport\s*\(\s*(['"])([^'"\n]+)\1\s*\)/g,
];

/** The relative specifiers a file imports, with the line of each. */
function importsOf(text) {
  const found = [];
  for (const pattern of IMPORT_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const specifier = match[2];
      if (!specifier.startsWith('.')) continue;
      const at = match.index + match[0].lastIndexOf(specifier);
      found.push({ specifier, line: text.slice(0, at).split('\n').length });
    }
  }
  return found.sort((a, b) => a.line - b.line);
}

const files = walk(root).filter(isCode).sort();
const fileSet = new Set(files);
/** module → (module it imports → the first import that makes the edge, as `file:line`). */
const edges = new Map();
const unresolved = [];
let importCount = 0;

for (const file of files) {
  const from = moduleOf(file);
  if (from && !edges.has(from)) edges.set(from, new Map());
  for (const { specifier, line } of importsOf(readFileSync(file, 'utf8'))) {
    const target = resolve(file, '..', specifier);
    // The code imports `.js`; the source beside it is `.ts` (`.mjs` → `.mts` likewise).
    const source = [target, target.replace(/\.js$/, '.ts'), target.replace(/\.mjs$/, '.mts')].find((path) => fileSet.has(path));
    importCount++;
    if (!source) {
      // Data files and what lies outside the root are not part of the graph; anything else is a misread import.
      if (!existsSync(target) && target.startsWith(root + sep)) unresolved.push(`${shown(file)}:${line} imports '${specifier}', which names no source file`);
      continue;
    }
    const to = moduleOf(source);
    if (from && to && to !== from && !edges.get(from).has(to)) edges.get(from).set(to, `${shown(file)}:${line}`);
  }
}

/** Tarjan's strongly connected components: every loop lies inside one with more than one node. */
function components() {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  let next = 0;
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node).keys()) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node), low.get(to)));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node), index.get(to)));
    }
    if (low.get(node) === index.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      found.push(component);
    }
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) visit(node);
  return found; // dependencies before their dependants
}

/** The shortest loop from `start` back to itself inside one component, as its nodes. */
function shortestLoop(start, members) {
  const cameFrom = new Map();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const to of [...edges.get(node).keys()].sort()) {
      if (!members.has(to)) continue;
      if (to === start) {
        const loop = [node];
        while (loop[0] !== start) loop.unshift(cameFrom.get(loop[0]));
        return loop;
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, node);
        queue.push(to);
      }
    }
  }
  return [];
}

/** One loop through each node of each tangled component, each loop printed once. */
function loops(found) {
  const seen = new Map();
  for (const component of found.filter((members) => members.length > 1)) {
    const members = new Set(component);
    for (const start of [...component].sort()) {
      const loop = shortestLoop(start, members);
      const first = loop.indexOf([...loop].sort()[0]);
      const key = [...loop.slice(first), ...loop.slice(0, first)];
      seen.set(key.join('\n'), key);
    }
  }
  return [...seen.values()];
}

if (unresolved.length > 0) {
  for (const line of unresolved) console.error(`unresolved import: ${line}`);
  process.exit(1);
}
const found = components();
const cycles = loops(found);
if (cycles.length > 0) {
  for (const cycle of cycles) {
    const ring = [...cycle, cycle[0]];
    console.error(`import cycle: ${ring.join(' → ')}`);
    for (let i = 0; i < cycle.length; i++) console.error(`  ${ring[i]} → ${ring[i + 1]}: ${edges.get(ring[i]).get(ring[i + 1])}`);
  }
  console.error(`${cycles.length} import cycle(s) among the modules of ${shown(root)}`);
  process.exit(1);
}
if (printOrder) {
  for (const [node] of found) console.log(`${node}: ${[...edges.get(node).keys()].sort().join(', ') || '—'}`);
}
const moduleEdges = [...edges.values()].reduce((sum, targets) => sum + targets.size, 0);
console.log(
  `no import cycles among the ${edges.size} modules of ${shown(root)}: ${moduleEdges} ${moduleEdges === 1 ? 'dependency' : 'dependencies'} between them, from ${importCount} relative imports in ${files.length} files`,
);
