import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** The web's page-part folders under apps/web/src/resources; every other folder there is a family's. */
const WEB_RESOURCE_PARTS = ['list', 'form', 'record', 'log', 'tree', 'import', 'shared'];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '**/drizzle/**', 'e2e/artifacts/**', '**/*.d.ts', '**/.openapi-client-*/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-syntax': [
        'error',
        {
          selector: "Property[key.name='refetchInterval']",
          message: 'Poll with hooks/use-background-poll: a refetchInterval fetch is sent as user activity and keeps the session from going idle (ASVS 3.3.2).',
        },
      ],
    },
  },
  {
    // Web family folders never import each other; they compose the page parts (list, form, record, log,
    // tree, import, shared) and the app's shared code in components/, hooks/, lib/.
    files: ['apps/web/src/resources/*/**/*.{ts,tsx}'],
    ignores: [`apps/web/src/resources/{${WEB_RESOURCE_PARTS.join(',')}}/**`],
    rules: {
      // gitignore order: a sibling folder (../x/…) is blocked, the part folders and the shared app code
      // two levels up (../../lib, ../../hooks, ../../components) are allowed, ../../resources/… is blocked again.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*/**', ...WEB_RESOURCE_PARTS.map((part) => `!../${part}/**`), '!../../**', '../../resources/*'],
              message: 'Family folders must not import each other; shared parts live in resources/{list,form,record,log,tree,import,shared}.',
            },
          ],
        },
      ],
    },
  },
);
