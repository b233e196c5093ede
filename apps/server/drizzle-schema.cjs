// drizzle-kit reads the tables a schema module exports by name. The declared families' tables are
// built in a loop from the contract's list (src/db/schema/resources.ts), so they are handed over here
// under their table names beside the hand-written ones: a new family needs no export of its own.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- drizzle-kit loads this file with require, and the TypeScript through its own loader
const schema = require('./src/db/schema/index.ts');

module.exports = { ...schema, ...Object.fromEntries(schema.declaredTables().map((table) => [`declared:${table[Symbol.for('drizzle:Name')]}`, table])) };
