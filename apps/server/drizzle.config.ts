import { defineConfig } from 'drizzle-kit';

// Generates the checked-in SQL migrations from the schema (every table, the declared families' too): `npm run db:generate -w apps/server`.
export default defineConfig({
  dialect: 'postgresql',
  schema: './drizzle-schema.cjs',
  out: './drizzle',
});
