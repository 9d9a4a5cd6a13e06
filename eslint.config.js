// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { readdirSync } from 'node:fs';

/**
 * Server module boundaries (issue 24): a module (server/modules/<name>) imports the contract and
 * the shared infrastructure (db, unit-of-work, plugins, lib, crud, jobs, mail, providers), never
 * another module: modules talk through domain events. The infrastructure imports no module.
 */
const serverModules = readdirSync(new URL('./server/modules', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const serverBoundaries = [
  ...serverModules.map((name) => ({
    target: `./server/modules/${name}`,
    from: './server/modules',
    except: [`./${name}`],
    message: `Un modulo del server non importa un altro modulo: usa un evento di dominio (server/unit-of-work/events.ts) o l'infrastruttura condivisa.`,
  })),
  {
    target: [
      './server/crud',
      './server/db',
      './server/lib',
      './server/plugins',
      './server/unit-of-work',
      './server/jobs',
      './server/mail',
      './server/providers',
    ],
    from: './server/modules',
    message: "L'infrastruttura condivisa non importa i moduli: sono i moduli a registrarsi (app.ts).",
  },
  {
    target: './server/modules/**/*.routes.ts',
    from: './server/db/schema',
    message: 'Un file di route non scrive né legge tabelle: passa da un servizio o repository del modulo.',
  },
];

/**
 * SPA import zones (bulletproof-react's unidirectional architecture): app → features → entities →
 * components / lib → contract, never back; type imports included (no-restricted-paths checks
 * `import type` too unless told otherwise). The app registers screens, a feature composes
 * entities and components, an entity declares, components and lib know no screen.
 */
const spaFeatures = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const spaZones = [
  // Features are independent of each other (bulletproof-react): what two share lives below them.
  ...spaFeatures.map((name) => ({
    target: `./src/features/${name}`,
    from: './src/features',
    except: [`./${name}`],
    message:
      "Una feature non importa un'altra feature: ciò che condividono sta in entities/, components/ o lib/.",
  })),
  {
    target: './src/features',
    from: './src/app',
    message: "Una feature non importa app/: è l'app a registrare le schermate (src/app/registry.ts).",
  },
  {
    target: './src/entities',
    from: ['./src/app', './src/features'],
    message:
      "Un'entità dichiara soltanto: non importa feature né app (le schermate composte stanno in features/).",
  },
  {
    target: ['./src/components', './src/lib'],
    from: ['./src/app', './src/features', './src/entities'],
    message: 'components/ e lib/ non conoscono schermate né entità: ricevono ciò che serve come parametri.',
  },
  {
    target: './contract',
    from: ['./src', './server'],
    message: 'Il contratto non importa né la SPA né il server: sono loro a leggerlo.',
  },
];

export default tseslint.config(
  {
    ignores: [
      'dist',
      'dist-server',
      'data',
      'node_modules',
      'coverage',
      'test-results',
      'playwright-report',
      'server/db/migrations',
      '.data-*',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    rules: {
      // The architecture guide forbids import cycles.
      'import-x/no-cycle': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['tsconfig.json', 'tsconfig.server.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
  },
  {
    // A total added to after an await (`sent += await …`) loses what ran meanwhile: the outbox
    // sweep over the tenants' databases once miscounted that way. The few deliberate
    // reassignments after an await say why where they are.
    files: ['server/**/*.{ts,mjs}', 'contract/**/*.ts', 'scripts/**/*.mjs'],
    rules: { 'require-atomic-updates': ['error', { allowProperties: true }] },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'tests/unit/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: [
      'server/**/*.ts',
      'scripts/**/*.{ts,mjs}',
      'tests/server/**/*.ts',
      'tests/e2e/**/*.ts',
      '*.config.{ts,js}',
    ],
    languageOptions: { globals: globals.node },
  },
  {
    // The SPA and the server meet only in contract/.
    files: ['src/**/*.{ts,tsx}', 'contract/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/server/**'] }],
      'import-x/no-restricted-paths': ['error', { zones: spaZones }],
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/src/**'] }],
      'import-x/no-restricted-paths': ['error', { zones: serverBoundaries }],
    },
  },
);
