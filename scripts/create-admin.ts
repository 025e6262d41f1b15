/**
 * `npm run create-admin -- --username U --password P --email E`
 * Creates an active admin, or promotes and reactivates the existing user with
 * that username or email (and sets the password). Safe to run again.
 * Uses the same database settings as the service (DATABASE_URL or DATA_DIR).
 */
import { parseArgs } from 'node:util';
import { runCli, UsageError } from '../src/cli.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { createLogger } from '../src/logger.js';
import { seedLeagues } from '../src/modules/leagues/leagues.repository.js';
import type { UsersService } from '../src/modules/users/users.service.js';
import { createServices } from '../src/services.js';

const USAGE = 'usage: npm run create-admin -- --username <name> --password <password> --email <email>';

export interface AdminArgs {
  username: string;
  password: string;
  email: string;
}

/** Parses and checks the arguments; throws an Error whose message says what to fix. */
export function parseAdminArgs(argv: string[]): AdminArgs {
  const { values } = parseArgs({
    args: argv,
    options: { username: { type: 'string' }, password: { type: 'string' }, email: { type: 'string' } },
    strict: true,
  });
  const missing = (['username', 'password', 'email'] as const).filter((k) => !values[k]);
  if (missing.length) throw new UsageError(`missing --${missing.join(', --')}`, USAGE);
  const { username, password, email } = values as AdminArgs;
  if (!/^[A-Za-z0-9._-]{3,32}$/.test(username)) throw new UsageError('--username must be 3 to 32 letters, digits, ".", "_" or "-"');
  if (password.length < 8 || password.length > 256) throw new UsageError('--password must be 8 to 256 characters');
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new UsageError('--email must be an email address');
  return { username, password, email };
}

export async function createAdmin(users: UsersService, args: AdminArgs): Promise<string> {
  const { user, created } = await users.createOrPromoteAdmin(args);
  return `${created ? 'created' : 'updated'} active admin '${user.username}' <${user.email}> (id ${user.id}); log in with POST /api/auth/login`;
}

async function main() {
  const args = parseAdminArgs(process.argv.slice(2));
  const config = loadConfig();
  const logger = createLogger('warn');
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir, maxConnections: 2 });
  try {
    await seedLeagues({ db: database.db });
    const services = createServices({ database, config, logger, storage: null });
    console.log(await createAdmin(services.users, args));
  } finally {
    await database.close();
  }
}

const invokedDirectly = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/').split('/').pop()!);
if (invokedDirectly) {
  runCli('create-admin', main);
}
