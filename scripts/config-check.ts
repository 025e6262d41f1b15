/**
 * `npm run config:check [-- --connect]`: validates the environment as the
 * service would at start and prints the effective settings (JSON, secrets
 * redacted); exits 1 with what to fix when a setting is wrong. With
 * `--connect` it also opens the database (and runs nothing else), so a
 * deployment fails before it starts rather than on its first request.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../src/config.js';
import { redactedConfig } from '../src/config-report.js';
import { DatabaseError, openDatabase } from '../src/db/client.js';

export async function configCheck(argv: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; out: string; err: string }> {
  let connect: boolean;
  try {
    ({
      values: { connect = false },
    } = parseArgs({ args: argv, options: { connect: { type: 'boolean' } } }));
  } catch (e) {
    return { code: 2, out: '', err: `config:check: ${(e as Error).message}. Usage: npm run config:check [-- --connect]` };
  }
  let config;
  try {
    config = loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return { code: 1, out: '', err: `config:check: ${e.message}` };
    throw e;
  }
  const out = JSON.stringify(redactedConfig(config), null, 2);
  if (connect) {
    try {
      // Reads only: migrations are the service's to run at start.
      const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, migrate: false });
      await database.close();
    } catch (e) {
      if (e instanceof DatabaseError) return { code: 1, out, err: `config:check: ${e.message}` };
      throw e;
    }
  }
  return {
    code: 0,
    out,
    err: connect
      ? `config:check: configuration valid; the ${config.databaseUrl ? 'PostgreSQL' : 'embedded'} database opens`
      : 'config:check: configuration valid',
  };
}

const invokedDirectly = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop()!);
if (invokedDirectly) {
  configCheck(process.argv.slice(2), process.env).then(
    ({ code, out, err }) => {
      if (out) console.log(out);
      if (err) console.error(err);
      process.exit(code);
    },
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
