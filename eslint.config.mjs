// Lint: typescript-eslint's type-aware recommended rules over the server, tests, benches, scripts
// and the pages' TypeScript; Vue's recommended rules over the pages' components. Layout is
// Prettier's alone (eslint-config-prettier turns the layout rules off). `npm test` runs it; a
// finding fails the suite.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import vue from 'eslint-plugin-vue';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'web/dist/**', 'node_modules/**', 'test-output/**', '.tmp/**', 'data/**', 'coverage/**'] },
  js.configs.recommended,
  {
    files: ['**/*.ts', '**/*.mts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname }, globals: globals.node },
    rules: {
      // Route handlers are async by Fastify's contract even when they await nothing.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Tests and benches read JSON answers and cells whose shape the assertions check, and spy on methods.
    files: ['test/**', 'bench/**', '**/*.test.ts', '**/*.test-helpers.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // Kysely's advice: a migration types its database as `Kysely<any>`, never as today's schema.
    files: ['src/db/migrations/**', 'src/db/migrate.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.vue'],
    extends: [tseslint.configs.recommended, vue.configs['flat/recommended']],
    languageOptions: { parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.vue'] } },
    rules: { 'vue/multi-word-component-names': ['error', { ignores: ['Root'] }] },
  },
  { files: ['web/src/**'], languageOptions: { globals: globals.browser } },
  { files: ['**/*.mjs', '**/*.js'], languageOptions: { globals: globals.node } },
  prettier,
);
