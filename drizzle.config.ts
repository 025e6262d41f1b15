import { defineConfig } from 'drizzle-kit';

// `npx drizzle-kit generate` writes SQL migrations into drizzle/ from the
// tables in src/db/schema.ts; the service runs them at start on PGlite and on
// PostgreSQL alike.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './drizzle',
  casing: undefined,
});
