// ESLint rule: a module's repositories are its own; other code comes in through its front door.
//
// A module (src/modules/<name>/) keeps its SQL in `*.repository.ts` files that
// only its own files import. What other modules, the engine, the live stream,
// the demo or the process entry need from it (a read, or a write they make in
// their own transaction) is a named function in its front door,
// `src/modules/<name>/<name>.public.ts`, or a call of its service. So the
// front door lists everything the rest of the code may do to a module's
// tables, and a repository can change without a search of the whole tree.
// Types count: a row type another module needs is exported by the front door
// (or comes from the `*.table.ts`).
//
// Nor does code above the modules (the engine, the live stream, the demo, the
// HTTP layer) query a module's tables itself: outside src/modules a
// `*.table.ts` is imported for its types only. The one exception is
// src/db/schema.ts, the list of every table that the database client and
// drizzle-kit's migrations are built from; it runs no query. And within the
// modules, SQL is the repositories' (services hold the rules and the
// transactions): a table is queried (`.from(table)`, a join, `${table}` in a
// `sql` template) only in a `*.repository.ts`.
import path from 'node:path';
import process from 'node:process';
import { loadTables } from './one-writer-per-table.js';

const MODULES = path.join(process.cwd(), 'src', 'modules');
const SCHEMA = path.join(process.cwd(), 'src', 'db', 'schema.ts');
const QUERY_METHODS = new Set(['from', 'innerJoin', 'leftJoin', 'rightJoin', 'fullJoin', 'crossJoin']);

let tables;

/** The module folder a path sits in (src/modules/<name>/...), if any. */
function moduleOf(file) {
  const rel = path.relative(MODULES, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  const [name, ...rest] = rel.split(path.sep);
  return rest.length ? name : undefined;
}

export const frontDoors = {
  meta: {
    type: 'problem',
    docs: { description: "a module's repositories are imported only by the module itself, and its tables queried only inside src/modules" },
    schema: [],
    messages: {
      repository:
        "{{file}} is src/modules/{{owner}}'s own: use its front door (src/modules/{{owner}}/{{owner}}.public.ts, where the module names what others may read and write) or its service.",
      query:
        '{{table}} is queried here: SQL lives in a *.repository.ts (of src/modules/{{owner}}, or of the module whose read this is, joining it); call that, through the front door from outside the module.',
      table:
        "{{file}}'s tables are queried in src/modules/{{owner}} only: import its types here (import type), and take a named read from the module's front door (src/modules/{{owner}}/{{owner}}.public.ts).",
    },
  },
  create(context) {
    const here = context.filename;
    const hereModule = moduleOf(here);
    /** Only types are imported: `import type`, or every name marked `type`. */
    const typesOnly = (node) =>
      node.importKind === 'type' ||
      node.exportKind === 'type' ||
      (node.specifiers?.length > 0 && node.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type'));
    const check = (node, source) => {
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const target = path.resolve(path.dirname(here), source.value);
      const owner = moduleOf(target);
      if (!owner || owner === hereModule) return;
      const file = path.basename(target);
      if (/\.repository(\.js|\.ts)?$/.test(target)) context.report({ node, messageId: 'repository', data: { owner, file } });
      else if (/\.table(\.js|\.ts)?$/.test(target) && !hereModule && here !== SCHEMA && !typesOnly(node))
        context.report({ node, messageId: 'table', data: { owner, file } });
    };
    tables ??= loadTables().byIdentifier;
    const repository = /\.repository\.ts$/.test(here);
    /** Whether `name` at `node` is a table imported from a `*.table.ts` (not a local that shares a table's name). */
    const importedTable = (node, name) => {
      for (let scope = context.sourceCode.getScope(node); scope; scope = scope.upper) {
        const variable = scope.set.get(name);
        if (variable) {
          const [def] = variable.defs;
          return def?.type === 'ImportBinding' && /\.table(\.js|\.ts)?$/.test(def.parent.source.value);
        }
      }
      return false;
    };
    const queried = (node, table) => {
      const owner = tables.get(table);
      if (owner && !repository && importedTable(node, table)) context.report({ node, messageId: 'query', data: { table, owner } });
    };
    return {
      CallExpression(node) {
        const { callee } = node;
        if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier' || !QUERY_METHODS.has(callee.property.name)) return;
        const [arg] = node.arguments;
        if (arg?.type === 'Identifier') queried(node, arg.name);
      },
      TaggedTemplateExpression(node) {
        const { tag } = node;
        const name = tag.type === 'Identifier' ? tag.name : tag.type === 'MemberExpression' && tag.object.type === 'Identifier' ? tag.object.name : undefined;
        if (name !== 'sql') return;
        for (const expr of node.quasi.expressions) if (expr.type === 'Identifier') queried(expr, expr.name);
      },
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
    };
  },
};

export default { rules: { 'front-doors': frontDoors } };
