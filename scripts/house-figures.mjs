#!/usr/bin/env node
// The house's figures: how many code files, how many lines, the median and the largest file, the
// import cycles between the source files of each package and app, and of the product code the
// files over 300 lines and the functions over 40 lines.
//
//   node scripts/house-figures.mjs              the working tree
//   node scripts/house-figures.mjs --ref REF    a commit (read with git, e.g. --ref main)
//   node scripts/house-figures.mjs --root DIR   another checkout's working tree (read only)
//   node scripts/house-figures.mjs --cycles     also print each cycle
//   node scripts/house-figures.mjs --long       also print each long file and long function
//
// Code files: the files git tracks under packages/, apps/, scripts/ and tooling/ ending in
// .ts/.tsx/.mts/.cts/.js/.mjs/.cjs (tests included; generated dist/ is not tracked). Lines: every
// line, blank and comment lines included; the product code (packages/*/src and apps/*/src
// without *.test.ts) is counted apart too. Cycles: strongly connected groups (more than one file,
// or a file importing itself) of the relative imports (`import`, `import type`, `export … from`,
// `import()`) among the files under packages/*/src and apps/*/src, the files `madge --circular`
// looks at; a cycle is counted once however many paths run through it. Long functions: the
// function-like nodes of the TypeScript compiler API (declarations, expressions, arrows, methods,
// constructors, accessors) in the product code whose body spans more than 40 lines (from the line
// of its first token to the line of its last, both counted); a nested function is counted on its
// own and inside its parent's span.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, resolve } from 'node:path';
import ts from 'typescript';

const args = process.argv.slice(2);
const optionValue = (flag) => {
  const at = args.indexOf(flag);
  return at === -1 ? undefined : args[at + 1];
};
const ref = optionValue('--ref');
const root = resolve(optionValue('--root') ?? resolve(import.meta.dirname, '..'));
/** The thresholds of the figures (issue 37's house figures). */
const LONG_FILE_LINES = 300;
const LONG_FUNCTION_LINES = 40;

const git = (...argv) =>
  execFileSync('git', argv, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });

const CODE = /\.(?:tsx?|mts|cts|js|mjs|cjs)$/;
const listed = (ref ? git('ls-tree', '-r', '--name-only', ref) : git('ls-files'))
  .split('\n')
  .filter((path) => /^(?:packages|apps|scripts|tooling)\//.test(path) && CODE.test(path));
const read = (path) =>
  ref ? git('show', `${ref}:${path}`) : readFileSync(join(root, path), 'utf8');
const texts = new Map(listed.map((path) => [path, read(path)]));

const lineCount = (text) =>
  text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
const sizes = [...texts].map(([path, text]) => ({ path, lines: lineCount(text) }));
sizes.sort((a, b) => a.lines - b.lines);
const total = sizes.reduce((sum, file) => sum + file.lines, 0);
const middle = Math.floor(sizes.length / 2);
const median =
  sizes.length % 2 === 1
    ? sizes[middle].lines
    : (sizes[middle - 1].lines + sizes[middle].lines) / 2;
const largest = sizes.at(-1);

// The import graph of the source files.
const SOURCE = /^(?:packages|apps)\/[^/]+\/src\//;
const sources = new Set(listed.filter((path) => SOURCE.test(path) && /\.tsx?$|\.m?js$/.test(path)));
const SPECIFIER =
  /(?:\bimport\s+(?:type\s+)?[^'";]*?\bfrom\s*|\bexport\s+(?:type\s+)?[^'";]*?\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;
function resolveImport(from, specifier) {
  const base = normalize(join(dirname(from), specifier));
  const stem = base.replace(/\.(?:js|mjs|cjs|jsx)$/, '');
  for (const candidate of [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    `${stem}.mts`,
    `${stem}.js`,
    `${stem}.mjs`,
    `${base}/index.ts`,
    `${base}/index.js`,
  ]) {
    if (sources.has(candidate)) return candidate;
  }
  return undefined;
}
const edges = new Map();
for (const path of sources) {
  const targets = new Set();
  for (const match of texts.get(path).matchAll(SPECIFIER)) {
    const target = resolveImport(path, match[1]);
    if (target !== undefined) targets.add(target);
  }
  edges.set(path, targets);
}

// Tarjan's strongly connected components.
const cycles = [];
{
  let index = 0;
  const order = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const visit = (node) => {
    order.set(node, index);
    low.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node)) {
      if (!order.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node), order.get(next)));
      }
    }
    if (low.get(node) === order.get(node)) {
      const group = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1 || edges.get(node).has(node)) cycles.push(group.sort());
    }
  };
  for (const node of [...sources].sort()) if (!order.has(node)) visit(node);
}

// The same figures for the product code alone: packages/*/src and apps/*/src, tests left out.
const product = sizes.filter(
  (file) => /^(?:packages|apps)\/[^/]+\/src\//.test(file.path) && !/\.test\.tsx?$/.test(file.path),
);
const productLines = product.reduce((sum, file) => sum + file.lines, 0);
const productMiddle = Math.floor(product.length / 2);
const productMedian =
  product.length % 2 === 1
    ? product[productMiddle].lines
    : (product[productMiddle - 1].lines + product[productMiddle].lines) / 2;

// Long functions of the product code, by the TypeScript compiler API.
const FUNCTION_KINDS = new Set([
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.FunctionExpression,
  ts.SyntaxKind.ArrowFunction,
  ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.Constructor,
  ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.SetAccessor,
]);
function longFunctions(path, text) {
  const kind = /\.tsx$/.test(path)
    ? ts.ScriptKind.TSX
    : /\.[cm]?js$/.test(path)
      ? ts.ScriptKind.JS
      : ts.ScriptKind.TS;
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const found = [];
  const visit = (node) => {
    if (FUNCTION_KINDS.has(node.kind) && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.body.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.body.getEnd()).line;
      const lines = last - first + 1;
      if (lines > LONG_FUNCTION_LINES) {
        const name = node.name?.getText(source) ?? nameOfParent(node, source) ?? '(anonymous)';
        found.push({ path, name, line: first + 1, lines });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
/** The name an anonymous function is bound to (`const f = () => …`, `{ f: () => … }`). */
function nameOfParent(node, source) {
  const parent = node.parent;
  if (
    parent &&
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) &&
    parent.name
  ) {
    return parent.name.getText(source);
  }
  return undefined;
}
const longFiles = product.filter((file) => file.lines > LONG_FILE_LINES);
const longFns = product
  .flatMap((file) => longFunctions(file.path, texts.get(file.path)))
  .sort((a, b) => b.lines - a.lines);

console.log(`code files: ${sizes.length}`);
console.log(`lines: ${total}`);
console.log(`median file: ${median} lines`);
console.log(`largest file: ${largest.path} (${largest.lines} lines)`);
console.log(`import cycles: ${cycles.length}`);
console.log(
  `product code (src, no tests): ${product.length} files, ${productLines} lines, median ${productMedian}, largest ${product.at(-1).path} (${product.at(-1).lines})`,
);
console.log(`product files over ${LONG_FILE_LINES} lines: ${longFiles.length}`);
console.log(
  `product functions over ${LONG_FUNCTION_LINES} lines: ${longFns.length}${longFns.length ? `, largest ${longFns[0].name} in ${longFns[0].path} (${longFns[0].lines})` : ''}`,
);
if (args.includes('--cycles')) {
  for (const group of cycles) console.log(`  ${group.join(' <-> ')}`);
}
if (args.includes('--long')) {
  for (const file of [...longFiles].reverse()) console.log(`  file ${file.path} ${file.lines}`);
  for (const fn of longFns) console.log(`  function ${fn.name} ${fn.path}:${fn.line} ${fn.lines}`);
}
