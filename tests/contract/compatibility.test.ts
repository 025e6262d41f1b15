/**
 * Contract changes consumers can trust: the contract is compared with the
 * last released one (openapi/released/<version>.yaml) by api-smart-diff; a
 * breaking change needs a breaking bump of info.version, and the contract
 * changelog names what changed (the rules: scripts/contract-diff.ts).
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  changelogPath,
  contractChangeProblems,
  contractChanges,
  contractPath,
  isBreakingBump,
  loadYaml,
  releasedContracts,
} from '../../scripts/contract-diff.js';

const latest = releasedContracts().at(-1)!;
const released = loadYaml(latest.file);
const changelog = fs.readFileSync(changelogPath, 'utf8');

/** A small contract: one operation answering a brand with two fields, one of them nullable. */
function tiny(version = '1.2.0'): any {
  return {
    openapi: '3.0.3',
    info: { title: 't', version },
    paths: {
      '/brands/{id}': {
        get: {
          operationId: 'getBrand',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            '200': {
              description: 'ok',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['id', 'name'],
                    properties: { id: { type: 'string' }, name: { type: 'string', nullable: true } },
                  },
                },
              },
            },
          },
        },
        put: {
          operationId: 'putBrand',
          requestBody: {
            content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string' }, color: { type: 'string' } } } } },
          },
          responses: { '204': { description: 'done' } },
        },
      },
    },
  };
}
const changelogFor = (sections: Record<string, string>) =>
  ['# Contract changelog', ...Object.entries(sections).map(([title, body]) => `## ${title}\n\n${body}\n`)].join('\n');

describe('the contract against the last released one', () => {
  it('is released as a file, named for its version', () => {
    expect(latest.version).toBe(released.info.version);
    expect(releasedContracts().map((r) => r.version)).toContain('0.1.0');
  });

  it('changes only as the rules allow: a breaking change bumps info.version, and the changelog says what changed', () => {
    const problems = contractChangeProblems({ released, current: loadYaml(contractPath), changelog });
    expect(problems).toEqual([]);
  });
});

describe('the rules of a contract change', () => {
  const base = tiny();
  const quiet = changelogFor({ Unreleased: 'Nothing yet.', '1.2.0': 'Released.' });

  it('take additions as compatible: a new operation, a new response field, a new optional request field', () => {
    const after = tiny();
    after.paths['/brands'] = { get: { operationId: 'listBrands', responses: { '200': { description: 'ok' } } } };
    after.paths['/brands/{id}'].get.responses['200'].content['application/json'].schema.properties.logo_url = { type: 'string' };
    after.paths['/brands/{id}'].put.requestBody.content['application/json'].schema.properties.tagline = { type: 'string' };
    const changes = contractChanges(base, after);
    expect(changes.filter((c) => c.type === 'breaking')).toEqual([]);
    expect(changes.filter((c) => c.type === 'compatible').length).toBeGreaterThanOrEqual(3);
    // Compatible, but the changelog must name the new operation.
    expect(contractChangeProblems({ released: base, current: after, changelog: quiet })).toEqual([
      "openapi/CHANGELOG.md '## Unreleased' does not name operation listBrands",
    ]);
    expect(contractChangeProblems({ released: base, current: after, changelog: changelogFor({ Unreleased: 'Added `listBrands`.', '1.2.0': '' }) })).toEqual([]);
  });

  it.each([
    ['a removed response field', (d: any) => delete d.paths['/brands/{id}'].get.responses['200'].content['application/json'].schema.properties.name],
    ['a removed operation', (d: any) => delete d.paths['/brands/{id}'].put],
    ['a changed request type', (d: any) => (d.paths['/brands/{id}'].put.requestBody.content['application/json'].schema.properties.color.type = 'integer')],
    ['a narrowed request field', (d: any) => (d.paths['/brands/{id}'].put.requestBody.content['application/json'].schema.properties.color.maxLength = 7)],
    ['a new required request field', (d: any) => (d.paths['/brands/{id}'].put.requestBody.content['application/json'].schema.required = ['name'])],
  ])('take %s as breaking: it needs a breaking version bump and says so', (_name, change) => {
    const after = tiny();
    change(after);
    expect(contractChanges(base, after).some((c) => c.type === 'breaking')).toBe(true);
    const unbumped = contractChangeProblems({ released: base, current: after, changelog: changelogFor({ Unreleased: 'Removed putBrand.', '1.2.0': '' }) });
    expect(unbumped.join('\n')).toMatch(/breaking change\(s\) since 1\.2\.0 need a breaking version bump of info\.version \(1\.2\.0 is not\)/);
    // A minor bump is not enough past 1.0; a major one with a section that says what breaks is.
    const minor = tiny('1.3.0');
    change(minor);
    expect(
      contractChangeProblems({ released: base, current: minor, changelog: changelogFor({ '1.3.0': 'Breaking: putBrand removed.', '1.2.0': '' }) })[0],
    ).toMatch(/need a breaking version bump/);
    const major = tiny('2.0.0');
    change(major);
    expect(contractChangeProblems({ released: base, current: major, changelog: changelogFor({ '2.0.0': 'Removed putBrand.', '1.2.0': '' }) })).toEqual([
      "openapi/CHANGELOG.md '## 2.0.0' does not say what is breaking",
    ]);
    expect(
      contractChangeProblems({ released: base, current: major, changelog: changelogFor({ '2.0.0': '### Breaking\n\nRemoved putBrand.', '1.2.0': '' }) }),
    ).toEqual([]);
  });

  it('need a changelog section for a bumped version, and count a minor bump as breaking while the major is 0', () => {
    expect(isBreakingBump('0.1.0', '0.2.0')).toBe(true);
    expect(isBreakingBump('0.1.0', '0.1.1')).toBe(false);
    expect(isBreakingBump('1.4.2', '1.5.0')).toBe(false);
    expect(isBreakingBump('1.4.2', '2.0.0')).toBe(true);
    const bumped = tiny('1.2.1');
    expect(contractChangeProblems({ released: base, current: bumped, changelog: quiet })).toEqual([
      "info.version is 1.2.1: openapi/CHANGELOG.md needs a section '## 1.2.1'",
    ]);
    const changed = tiny();
    changed.paths['/brands/{id}'].get.responses['200'].content['application/json'].schema.properties.logo_url = { type: 'string' };
    expect(contractChangeProblems({ released: base, current: changed, changelog: changelogFor({ '1.2.0': '' }) })[0]).toMatch(
      /needs a section '## Unreleased' saying what/,
    );
  });
});
