import { defineConfig } from 'drizzle-kit';

// Generates the checked-in SQL migrations from the schema: `npm run db:generate -w apps/server`.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './drizzle',
});
