#!/usr/bin/env node
// Documentation that restates a list the code holds is generated from that list, between two
// markers in a markdown file, so it cannot drift:
//
//   <!-- generated:NAME begin (scripts/generated-docs.mjs --write) -->
//   ...
//   <!-- generated:NAME end -->
//
// or, for a word or a list inside a sentence: <!-- generated:NAME -->…<!-- /generated:NAME -->.
//
//   node scripts/generated-docs.mjs           print every block
//   node scripts/generated-docs.mjs --write   rewrite the blocks in their files
//   node scripts/generated-docs.mjs --check   exit 1 when a block is stale or its markers missing
//
// The lists are read from the packages' built code (`dist/`), so build first (`pnpm build`; CI's
// scripts/run.sh does). A new block is one entry of BLOCKS: the file, its name, and a function
// from the built packages to markdown.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');

/** Imports a workspace package's built entry (`packages/<dir>/dist/<entry>.js`). */
async function built(dir, entry = 'index') {
  const file = join(root, 'packages', dir, 'dist', `${entry}.js`);
  if (!existsSync(file)) {
    throw new Error(`${file} is missing: build the packages first (pnpm build)`);
  }
  return import(pathToFileURL(file).href);
}

/** A markdown table cell: pipes escaped, one line. */
const cell = (text) => String(text).replaceAll('|', '\\|').replaceAll('\n', ' ');

/** The README's configuration table, from `EnvSchema` and `CONFIG_RULES` of `@svc/service`. */
async function configuration() {
  const { describeEnvironment, CONFIG_RULES } = await built('service');
  const variables = describeEnvironment();
  const rows = variables.map((variable) => {
    const fallback =
      variable.unset ?? (variable.default === undefined ? 'none' : `\`${variable.default}\``);
    return `| \`${variable.name}\` | ${cell(variable.description)} | ${cell(fallback)} |`;
  });
  const command = variables.filter((variable) => variable.command).map((v) => `\`${v.name}\``);
  // Variable names (and `NAME=choice`) in code type.
  const code = (text) => text.replaceAll(/\b[A-Z][A-Z0-9]*_[A-Z0-9_]+(?:=[a-z-]+)?/g, '`$&`');
  const rules = CONFIG_RULES.map((rule) => `- ${code(rule.message)}`);
  return [
    '| Variable | Meaning | Default |',
    '|---|---|---|',
    ...rows,
    '',
    'Rules between variables (`CONFIG_RULES`), each refusing the configuration when broken:',
    '',
    ...rules,
    '',
    `The command line tools read ${command.join(', ')} (\`command\` in \`EnvSchema\`).`,
  ].join('\n');
}

/** How many criteria the scoring model has (`CRITERIA` of `@svc/moat-scoring`). */
async function criteriaCount() {
  const { CRITERIA } = await built('moat-scoring');
  return String(CRITERIA.length);
}

/** The import modules' names (`BROKER_FORMAT_LABELS` of `@svc/portfolio`), as a sentence. */
async function brokers() {
  const { BROKER_FORMAT_LABELS } = await built('portfolio');
  const names = Object.values(BROKER_FORMAT_LABELS);
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * The catalogue of broker formats (`BROKER_CATALOGUE` of `@svc/portfolio`): id, export, and the
 * source each definition was written from, with its licence.
 */
async function brokerCatalogue() {
  const { BROKER_CATALOGUE } = await built('portfolio');
  const rows = BROKER_CATALOGUE.map(
    (e) =>
      `| \`${e.id}\` | ${cell(e.label)} | ${e.source.kind} | ${cell(e.source.reference)} | ${cell(e.source.licence ?? '')} |`,
  );
  return [
    '| `format` | Export | Source kind | Source | Licence of the source |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** The MCP tools of the catalogue (`toolsOn('mcp')` of `@svc/use-cases`) with their scopes. */
async function mcpTools() {
  const { toolsOn, toolSignature, scopesPerTool, SPEC_MCP_TOOLS } = await built('use-cases');
  const tools = toolsOn('mcp');
  const rows = tools.map((tool) => {
    const spec = SPEC_MCP_TOOLS.includes(tool.name) ? 'yes' : '';
    const also = tool.surfaces.includes('advisor') ? 'yes' : '';
    const hides = tool.redactUnless ? `without \`${tool.redactUnless.scope}\`: no amounts` : '';
    const spends = (tool.spends ?? []).map((quota) => `\`${quota}\``).join(', ');
    return `| \`${cell(toolSignature(tool))}\` | ${tool.scopes.map((s) => `\`${s}\``).join(', ')} | ${cell(hides)} | ${spends} | ${spec} | ${also} |`;
  });
  return [
    '| Tool and arguments | Scopes | Redaction | Spends | Spec §4.5 | Advisor too |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    `Scopes per tool: ${scopesPerTool(tools)}`,
  ].join('\n');
}

/**
 * Every generated block: the file it lives in (from the root), its name, its markdown; `inline`
 * blocks sit inside a line (markers and content on one line).
 */
const BLOCKS = [
  { file: 'README.md', name: 'configuration', render: configuration },
  { file: 'README.md', name: 'criteria-count', render: criteriaCount, inline: true },
  { file: 'README.md', name: 'brokers', render: brokers, inline: true },
  { file: 'packages/mcp-server/README.md', name: 'mcp-tools', render: mcpTools },
  { file: 'packages/portfolio/README.md', name: 'broker-catalogue', render: brokerCatalogue },
];

const markers = (name, inline = false) => ({
  begin: inline
    ? `<!-- generated:${name} -->`
    : `<!-- generated:${name} begin (scripts/generated-docs.mjs --write) -->`,
  end: inline ? `<!-- /generated:${name} -->` : `<!-- generated:${name} end -->`,
});

/** The file's text with the block's content replaced, or `null` when its markers are missing. */
function replaced(text, { name, inline }, content) {
  const { begin, end } = markers(name, inline);
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from === -1 || to === -1 || to < from) return null;
  const body = inline ? content : `\n${content}\n`;
  return `${text.slice(0, from + begin.length)}${body}${text.slice(to)}`;
}

const mode = process.argv[2];
let stale = 0;
const files = new Map();
for (const block of BLOCKS) {
  const content = await block.render();
  if (mode !== '--write' && mode !== '--check') {
    console.log(`## ${block.file}: ${block.name}\n\n${content}\n`);
    continue;
  }
  const path = join(root, block.file);
  const text = files.get(path) ?? readFileSync(path, 'utf8');
  const next = replaced(text, block, content);
  if (next === null) {
    console.error(`${block.file}: the markers of the generated block "${block.name}" are missing`);
    stale++;
    continue;
  }
  if (next !== text) {
    if (mode === '--check') {
      console.error(
        `${block.file}: the generated block "${block.name}" is stale: run node scripts/generated-docs.mjs --write`,
      );
      stale++;
    }
    files.set(path, next);
  }
}
if (mode === '--write') {
  for (const [path, text] of files) writeFileSync(path, text);
  console.log(`generated-docs: ${files.size} file(s) rewritten`);
}
if (stale > 0) process.exit(1);
