// zod compiles object parsers with `new Function` when it may, deciding so as each schema is built;
// the CSP (script-src 'self', no 'unsafe-eval') forbids it, and zod's probe for it would be reported
// as a violation on every page. A classic script runs before the module scripts, so this setting
// (read by zod from globalThis) is in place before the first schema is built.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
