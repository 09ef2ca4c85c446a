import { defineConfig } from 'drizzle-kit';

/** One set of migrations for both backends: PGlite speaks the same PostgreSQL dialect. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/schema/index.ts',
  out: './drizzle',
});
