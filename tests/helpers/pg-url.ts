/**
 * The PostgreSQL server tests run against, if any: TEST_DATABASE_URL only. A
 * DATABASE_URL set for the service is never used by the tests (they create
 * and drop databases on their server).
 */
export const testDatabaseUrl = () => process.env.TEST_DATABASE_URL || undefined;

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** The same server, on the maintenance database (to create and drop databases). */
export const adminUrl = (url: string) => withDatabase(url, 'postgres');
