// ESLint rule: each table is written only by its own module's repository.
//
// A table belongs to the module whose `<module>.table.ts` (or `*.table.ts`)
// under src/modules declares it with pgTable(). Writing it means drizzle's
// `.insert(table)`, `.update(table)` or `.delete(table)`, or raw SQL in a
// `sql` template (`insert into ${table}`, `update ${table}`, `delete from
// ${table}`, or the table's SQL name written out). Only files named
// `*.repository.ts` in the owning module's folder may do that; everything
// else (services, the engine, schedule sync, the demo, other modules) calls
// that repository.
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';

const MODULES = path.join(process.cwd(), 'src', 'modules');

/** Table identifier and SQL name -> owning module folder, read once from the table files. */
export function loadTables(root = MODULES) {
  const byIdentifier = new Map();
  const bySqlName = new Map();
  if (!fs.existsSync(root)) return { byIdentifier, bySqlName };
  for (const moduleName of fs.readdirSync(root)) {
    const dir = path.join(root, moduleName);
    if (!fs.statSync(dir).isDirectory()) continue;
    for (const file of fs.readdirSync(dir)) {
      if (!file.endsWith('.table.ts')) continue;
      const text = fs.readFileSync(path.join(dir, file), 'utf8');
      for (const m of text.matchAll(/export const (\w+)\s*=\s*pgTable\(\s*'(\w+)'/g)) {
        byIdentifier.set(m[1], moduleName);
        bySqlName.set(m[2], moduleName);
      }
    }
  }
  return { byIdentifier, bySqlName };
}

let tables;

/** The module folder a file sits in (src/modules/<name>/...), and whether it is a repository. */
function placeOf(filename) {
  const rel = path.relative(MODULES, filename);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return { module: undefined, repository: false };
  const [moduleName] = rel.split(path.sep);
  return { module: moduleName, repository: /\.repository\.ts$/.test(filename) };
}

const WRITE_BEFORE = /(insert\s+into|update|delete\s+from)\s*"?$/i;
const WRITE_NAMED = /\b(insert\s+into|update|delete\s+from)\s+"?([a-z_][a-z0-9_]*)"?/gi;

export const oneWriterPerTable = {
  meta: {
    type: 'problem',
    docs: { description: "a table is written only by its own module's repository" },
    schema: [],
    messages: {
      outside: '{{table}} belongs to src/modules/{{owner}}: write it only in src/modules/{{owner}}/*.repository.ts and call that from here ({{how}}).',
    },
  },
  create(context) {
    tables ??= loadTables();
    const here = placeOf(context.filename);
    const allowed = (owner) => here.module === owner && here.repository;
    const report = (node, table, owner, how) => {
      if (!allowed(owner)) context.report({ node, messageId: 'outside', data: { table, owner, how } });
    };
    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier') return;
        const op = callee.property.name;
        if (op !== 'insert' && op !== 'update' && op !== 'delete') return;
        const [arg] = node.arguments;
        if (!arg || arg.type !== 'Identifier') return;
        const owner = tables.byIdentifier.get(arg.name);
        if (owner) report(node, arg.name, owner, `.${op}()`);
      },
      TaggedTemplateExpression(node) {
        const tag = node.tag;
        const name = tag.type === 'Identifier' ? tag.name : tag.type === 'MemberExpression' && tag.object.type === 'Identifier' ? tag.object.name : undefined;
        if (name !== 'sql') return;
        const { quasis, expressions } = node.quasi;
        expressions.forEach((expr, i) => {
          if (expr.type !== 'Identifier') return;
          const owner = tables.byIdentifier.get(expr.name);
          if (owner && WRITE_BEFORE.test(quasis[i].value.cooked ?? quasis[i].value.raw)) report(node, expr.name, owner, 'raw SQL');
        });
        for (const q of quasis) {
          for (const m of (q.value.cooked ?? q.value.raw).matchAll(WRITE_NAMED)) {
            const owner = tables.bySqlName.get(m[2].toLowerCase());
            if (owner) report(node, m[2], owner, 'raw SQL');
          }
        }
      },
    };
  },
};

export default { rules: { 'one-writer-per-table': oneWriterPerTable } };
