/**
 * The PostgreSQL server tests run against, if any: TEST_DATABASE_URL,
 * else DATABASE_URL. The tests create and drop databases of their own on that
 * server (`qp_t_*`); they never touch the database the URL names.
 */
export const testDatabaseUrl = () => process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || undefined;

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** The same server, on the maintenance database (to create and drop databases). */
export const adminUrl = (url: string) => withDatabase(url, 'postgres');
