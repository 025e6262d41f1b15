/**
 * The container recipe: the Dockerfile (multi-stage, non-root, the compiled
 * service, a health check on /healthz, every file the service reads copied)
 * and compose.yaml (PostgreSQL, an S3 store, two API replicas and a worker,
 * health checks on /readyz, every setting a real one). Read with a Dockerfile
 * parser and a YAML parser everywhere; built and validated by Docker itself
 * where a Docker engine and Compose are available.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DockerfileParser } from 'dockerfile-ast';
import * as yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { paths, projectRoot } from '../../src/paths.js';

const dockerfile = DockerfileParser.parse(fs.readFileSync(path.join(projectRoot, 'Dockerfile'), 'utf8'));
const compose = yaml.load(fs.readFileSync(path.join(projectRoot, 'compose.yaml'), 'utf8'), { schema: yaml.CORE_SCHEMA.withTags(yaml.mergeTag) }) as {
  services: Record<
    string,
    {
      image?: string;
      build?: unknown;
      command?: string[];
      environment?: Record<string, string>;
      ports?: string[];
      deploy?: { replicas?: number };
      depends_on?: Record<string, { condition: string }>;
      healthcheck?: { test: string[] };
    }
  >;
};
const readme = fs.readFileSync(path.join(projectRoot, 'README.md'), 'utf8');
/** Settings the README documents (its settings tables). */
const documented = new Set(
  [...readme.matchAll(/^\| (`[A-Z0-9_]+`(?:, `[A-Z0-9_]+`)*) \|/gm)].flatMap((m) => [...m[1]!.matchAll(/`([A-Z0-9_]+)`/g)].map((n) => n[1]!)),
);

const instructions = dockerfile.getInstructions();
const finalStage = instructions.slice(instructions.lastIndexOf(dockerfile.getFROMs().at(-1)! as never));
const args = (keyword: string) => finalStage.filter((i) => i.getKeyword() === keyword).map((i) => i.getArgumentsContent() ?? '');

const dockerWorks =
  spawnSync('docker', ['info'], { stdio: 'ignore' }).status === 0 && spawnSync('docker', ['compose', 'version'], { stdio: 'ignore' }).status === 0;

describe('Dockerfile', () => {
  it('builds in stages and runs the compiled service as a non-root user, checked on /healthz', () => {
    expect(dockerfile.getFROMs().length).toBeGreaterThanOrEqual(2);
    expect(dockerfile.getFROMs().every((f) => /^node:22(\.\d+)*-bookworm-slim$/.test(f.getImageName() + ':' + f.getImageTag()))).toBe(true);
    const users = args('USER');
    expect(users).toHaveLength(1);
    expect(users[0]).not.toMatch(/^(root|0)(:|$)/);
    expect(args('CMD')[0]).toMatch(/"dist\/main\.js"/);
    expect(args('HEALTHCHECK')[0]).toMatch(/\/healthz/);
    // The build step is the project's own.
    expect(instructions.some((i) => i.getKeyword() === 'RUN' && i.getArgumentsContent() === 'npm run build')).toBe(true);
    expect(instructions.some((i) => i.getKeyword() === 'RUN' && /npm ci --omit=dev/.test(i.getArgumentsContent() ?? ''))).toBe(true);
  });

  it('installs with the patches the postinstall script applies: patches/ is copied before each npm ci', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.postinstall).toMatch(/^patch-package\b/);
    expect(fs.readdirSync(path.join(projectRoot, 'patches')).length).toBeGreaterThan(0);
    let stages = 0;
    for (const [n, i] of instructions.entries()) {
      if (i.getKeyword() !== 'RUN' || !/\bnpm ci\b/.test(i.getArgumentsContent() ?? '')) continue;
      stages++;
      const stage = instructions.slice(0, n).findLast((x) => x.getKeyword() === 'FROM')!;
      const before = instructions.slice(instructions.indexOf(stage), n);
      expect(
        before.some((x) => x.getKeyword() === 'COPY' && (x.getArgumentsContent() ?? '').split(/\s+/).slice(0, -1).includes('patches')),
        `npm ci at line ${i.getRange().start.line + 1}`,
      ).toBe(true);
    }
    expect(stages).toBeGreaterThanOrEqual(2);
    const ignored = fs
      .readFileSync(path.join(projectRoot, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim());
    expect(ignored).not.toContain('patches');
  });

  it('copies every file the compiled service reads, and nothing it copies is ignored by .dockerignore', () => {
    // Sources from the build context (not from another stage), all but the last argument (the destination).
    const copied = finalStage
      .filter((i) => i.getKeyword() === 'COPY' && !(i as unknown as { getFlags(): { getName(): string }[] }).getFlags().some((f) => f.getName() === 'from'))
      .flatMap((i) =>
        i
          .getArguments()
          .slice(0, -1)
          .map((a) => a.getValue()),
      );
    for (const needed of [paths.generated, paths.migrations, paths.adminUiCss, path.join(projectRoot, 'package.json')]) {
      expect(copied, path.relative(projectRoot, needed)).toContain(path.relative(projectRoot, needed));
    }
    for (const source of copied) expect(fs.existsSync(path.join(projectRoot, source)), source).toBe(true);
    const ignored = fs
      .readFileSync(path.join(projectRoot, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    for (const source of [...copied, 'src', 'scripts', 'openapi'])
      expect(
        ignored.some((pattern) => source === pattern || source.startsWith(`${pattern}/`)),
        source,
      ).toBe(false);
  });

  it('sets only real settings, which load', () => {
    const env: Record<string, string> = {};
    for (const a of args('ENV')) for (const m of a.matchAll(/([A-Z_]+)=(\S+)/g)) env[m[1]!] = m[2]!;
    for (const name of Object.keys(env)) if (name !== 'NODE_ENV') expect(documented, name).toContain(name);
    expect(() => loadConfig({ ...env, DATABASE_URL: 'postgres://x@db/qp' })).not.toThrow();
  });
});

describe('compose.yaml', () => {
  const { services } = compose;

  it('starts PostgreSQL, Redis, an S3-compatible store with its bucket, two API replicas and a worker, from the one image', () => {
    expect(Object.keys(services).sort()).toEqual(['api', 'minio', 'minio-setup', 'postgres', 'redis', 'worker']);
    expect(services.api!.build).toBe('.');
    expect(services.api!.deploy?.replicas).toBe(2);
    expect(services.worker!.image).toBe(services.api!.image);
    expect(services.worker!.command).toEqual(['node', '--enable-source-maps', 'dist/worker.js']);
    expect(services.api!.environment!.ENGINE_WORKER).toBe('false');
    for (const [name, s] of Object.entries(services)) {
      for (const dep of Object.keys(s.depends_on ?? {})) expect(Object.keys(services), `${name} depends on ${dep}`).toContain(dep);
    }
  });

  it("checks each process's /readyz on the port it serves it on", () => {
    const probe = (name: string) => /fetch\('http:\/\/127\.0\.0\.1:(\d+)(\/\w+)'\)/.exec(services[name]!.healthcheck!.test.join(' '));
    const api = probe('api');
    expect(api?.[2]).toBe('/readyz');
    expect(api?.[1]).toBe(services.api!.environment!.PORT);
    const worker = probe('worker');
    expect(worker?.[2]).toBe('/readyz');
    expect(worker?.[1]).toBe(services.worker!.environment!.OPS_PORT);
    expect(services.postgres!.healthcheck!.test.join(' ')).toMatch(/pg_isready/);
    expect(services.redis!.healthcheck!.test.join(' ')).toMatch(/redis-cli ping/);
    expect(services.api!.depends_on).toMatchObject({
      postgres: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
      'minio-setup': { condition: 'service_completed_successfully' },
    });
    expect(services.worker!.depends_on).toMatchObject({ api: { condition: 'service_healthy' } });
  });

  it('gives the service only documented settings, which load (database, Redis, logos on the S3 store, the operations port)', () => {
    for (const name of ['api', 'worker']) {
      const env = services[name]!.environment!;
      for (const key of Object.keys(env)) expect(documented, `${name}: ${key}`).toContain(key);
      const config = loadConfig(env);
      expect(config.databaseUrl).toMatch(/^postgres:\/\/.*@postgres:5432\//);
      expect(config.s3).toMatchObject({ bucket: 'qp-logos', endpoint: 'http://minio:9000', forcePathStyle: true });
      expect(config.ops.port).toBe(9100);
      expect(config.redis).toEqual({ url: 'redis://redis:6379/0', keyPrefix: 'qp:' });
    }
    // The bucket the setup job makes is the one the service writes to.
    expect((services['minio-setup'] as unknown as { entrypoint: string[] }).entrypoint.join(' ')).toContain(`qp/${services.api!.environment!.S3_BUCKET}`);
  });

  it.skipIf(!dockerWorks)(
    'is valid for Docker Compose, and the image builds (where a Docker engine runs)',
    () => {
      execFileSync('docker', ['compose', 'config', '--quiet'], { cwd: projectRoot, stdio: 'pipe' });
      execFileSync('docker', ['build', '--quiet', '-t', 'question-play:test', '.'], { cwd: projectRoot, stdio: 'pipe', timeout: 900_000 });
    },
    900_000,
  );
});
