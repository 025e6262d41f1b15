/**
 * `npm run contract:diff`: what changed in `openapi/openapi.yaml` since the
 * last released contract (`openapi/released/<version>.yaml`), each change
 * classified breaking or compatible by api-smart-diff, and what the rules
 * of a contract change ask for (tests/contract/compatibility.test.ts runs
 * the same rules in `npm test`):
 *
 * - a breaking change needs a breaking version bump of `info.version`
 *   (the major version; the minor one while the major is 0);
 * - the changelog (`openapi/CHANGELOG.md`) has a section for what is not
 *   released yet (`## Unreleased`, or `## <info.version>` once bumped) that
 *   names every operation added or removed, and says `Breaking` when a
 *   change is.
 */
import fs from 'node:fs';
import path from 'node:path';
import { apiCompare, type Diff } from 'api-smart-diff';
import * as yaml from 'js-yaml';

const root = path.resolve(import.meta.dirname, '..');
export const contractPath = path.join(root, 'openapi', 'openapi.yaml');
export const releasedDir = path.join(root, 'openapi', 'released');
export const changelogPath = path.join(root, 'openapi', 'CHANGELOG.md');

type Version = [number, number, number];

export function parseVersion(text: string): Version {
  const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (!m) throw new Error(`'${text}' is not a version (major.minor.patch)`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

const compareVersions = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** True when `next` is a breaking bump over `released`: a new major version, or a new minor one while the major is 0. */
export function isBreakingBump(released: string, next: string): boolean {
  const [a, b] = [parseVersion(released), parseVersion(next)];
  return b[0] > a[0] || (a[0] === 0 && b[0] === 0 && b[1] > a[1]);
}

/** The released contracts, oldest first: `openapi/released/<version>.yaml`. */
export function releasedContracts(dir = releasedDir): { version: string; file: string }[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d+\.\d+\.\d+\.yaml$/.test(f))
    .map((f) => ({ version: f.slice(0, -'.yaml'.length), file: path.join(dir, f) }))
    .sort((a, b) => compareVersions(parseVersion(a.version), parseVersion(b.version)));
}

export const loadYaml = (file: string): ContractDoc => yaml.load(fs.readFileSync(file, 'utf8')) as ContractDoc;

export interface ContractDoc {
  info: { version: string };
  paths: Record<string, Record<string, { operationId?: string }>>;
}

export interface ContractChange {
  type: 'breaking' | 'compatible' | 'annotation';
  /** `GET /api/brands` or the top-level part changed (`servers`, `security`). */
  where: string;
  description: string;
}

const METHODS = new Set(['get', 'put', 'post', 'patch', 'delete', 'head', 'options', 'trace']);

/**
 * The changes from `before` to `after` as a consumer sees them: per operation
 * (components count through the operations that use them, after their $refs
 * are resolved), one line per change.
 */
export function contractChanges(before: ContractDoc, after: ContractDoc): ContractChange[] {
  const { diffs } = apiCompare(before, after);
  const out: ContractChange[] = [];
  const seen = new Set<string>();
  for (const d of diffs as Diff[]) {
    const [top, p, method] = d.path.map(String);
    if (top === 'components' || (top === 'info' && d.type !== 'breaking')) continue;
    const where = top === 'paths' && p && method && METHODS.has(method) ? `${method.toUpperCase()} ${p}` : top === 'paths' && p ? p : top!;
    const type = d.type === 'breaking' ? 'breaking' : d.type === 'annotation' ? 'annotation' : 'compatible';
    const description = d.description ?? `${d.action} ${d.path.join('.')}`;
    const key = `${type}|${where}|${description}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ type, where, description });
  }
  return out;
}

/** operationIds present in one document and not in the other. */
export function operationChanges(before: ContractDoc, after: ContractDoc): { added: string[]; removed: string[] } {
  const ids = (doc: ContractDoc) =>
    new Set(
      Object.values(doc.paths ?? {}).flatMap((item) =>
        Object.entries(item)
          .filter(([m, op]) => METHODS.has(m) && op?.operationId)
          .map(([, op]) => op.operationId!),
      ),
    );
  const [a, b] = [ids(before), ids(after)];
  return { added: [...b].filter((id) => !a.has(id)).sort(), removed: [...a].filter((id) => !b.has(id)).sort() };
}

/** The changelog's `## <title>` sections, by title (its first word: `Unreleased` or a version). */
export function changelogSections(text: string): Map<string, string> {
  const sections = new Map<string, string>();
  const parts = text.split(/^## +/m).slice(1);
  for (const part of parts) {
    const [heading = '', ...body] = part.split('\n');
    sections.set(heading.trim().split(/\s+/)[0]!, body.join('\n'));
  }
  return sections;
}

/** What a change from the released contract to the current one still needs; empty when it may land. */
export function contractChangeProblems({
  released,
  current,
  changelog,
  changes = contractChanges(released, current),
}: {
  released: ContractDoc;
  current: ContractDoc;
  changelog: string;
  changes?: ContractChange[];
}): string[] {
  const problems: string[] = [];
  const [was, now] = [released.info.version, current.info.version];
  if (compareVersions(parseVersion(now), parseVersion(was)) < 0) problems.push(`info.version ${now} is older than the released ${was}`);
  const breaking = changes.filter((c) => c.type === 'breaking');
  if (breaking.length && !isBreakingBump(was, now)) {
    problems.push(
      `${breaking.length} breaking change(s) since ${was} need a breaking version bump of info.version (${now} is not): ` +
        breaking
          .slice(0, 10)
          .map((c) => `${c.where}: ${c.description}`)
          .join('; '),
    );
  }
  const sections = changelogSections(changelog);
  if (!sections.has(was)) problems.push(`openapi/CHANGELOG.md has no section '## ${was}' for the released contract`);
  const pending = now !== was ? sections.get(now) : sections.get('Unreleased');
  const title = now !== was ? now : 'Unreleased';
  if (now !== was && !sections.has(now)) problems.push(`info.version is ${now}: openapi/CHANGELOG.md needs a section '## ${now}'`);
  const substantive = changes.filter((c) => c.type !== 'annotation');
  if (substantive.length && pending === undefined && now === was)
    problems.push(`the contract changed since ${was} (${substantive.length} change(s)): openapi/CHANGELOG.md needs a section '## Unreleased' saying what`);
  if (pending !== undefined) {
    const { added, removed } = operationChanges(released, current);
    for (const id of [...added, ...removed]) if (!pending.includes(id)) problems.push(`openapi/CHANGELOG.md '## ${title}' does not name operation ${id}`);
    if (breaking.length && !/breaking/i.test(pending)) problems.push(`openapi/CHANGELOG.md '## ${title}' does not say what is breaking`);
  }
  return problems;
}

const invokedDirectly = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop()!);
if (invokedDirectly) {
  const latest = releasedContracts().at(-1);
  if (!latest) {
    console.error('contract:diff: no released contract in openapi/released/');
    process.exit(1);
  }
  const released = loadYaml(latest.file);
  const current = loadYaml(contractPath);
  const changes = contractChanges(released, current);
  const { added, removed } = operationChanges(released, current);
  console.log(`Changes since ${latest.version} (info.version now ${current.info.version}):`);
  for (const type of ['breaking', 'compatible', 'annotation'] as const) {
    const of = changes.filter((c) => c.type === type);
    console.log(`\n${type} (${of.length})`);
    for (const c of type === 'annotation' ? of.slice(0, 20) : of) console.log(`  ${c.where}: ${c.description}`);
    if (type === 'annotation' && of.length > 20) console.log(`  ... and ${of.length - 20} more`);
  }
  if (added.length || removed.length) console.log(`\noperations added: ${added.join(', ') || '-'}; removed: ${removed.join(', ') || '-'}`);
  const problems = contractChangeProblems({ released, current, changelog: fs.readFileSync(changelogPath, 'utf8'), changes });
  for (const p of problems) console.error(`contract:diff: ${p}`);
  process.exit(problems.length ? 1 : 0);
}
