// The lint step of `npm test`: neostandard (JavaScript Standard Style on eslint 9's flat config, with
// typescript-eslint for the .ts files), as fastify/demo uses it. `npm run lint` checks, `npm run
// lint:fix` applies what eslint can fix itself. Each departure from neostandard below says why.
import neostandard, { resolveIgnoresFromGitignore } from 'neostandard'
import globals from 'globals'

export default [
  ...neostandard({
    ts: true,
    // What .gitignore lists (dist/, coverage/, .tap/, bench/results/, …) is generated, never linted.
    ignores: resolveIgnoresFromGitignore(),
  }),
  {
    rules: {
      // `void promise` as a statement is how this code says "deliberately not awaited": a Fastify
      // reply is thenable, the scheduler's and webhook worker's runs are fire-and-forget. `void` as
      // an expression (`x = void 0`) stays forbidden.
      'no-void': ['error', { allowAsStatement: true }],
    },
  },
  {
    // The dashboard is one vanilla module the browser loads as is (no build step): it runs with the
    // browser's globals, not Node's.
    files: ['server/dashboard/**/*.js'],
    languageOptions: { globals: globals.browser },
  },
  {
    // OptionalKind is imported only so that the emitted declaration of ConfigSchema can name it
    // (without it `npm run build` fails with TS4023); nothing reads it. Same options as neostandard's.
    files: ['server/config.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { args: 'none', caughtErrors: 'none', ignoreRestSiblings: true, vars: 'all', varsIgnorePattern: '^OptionalKind$' }],
    },
  },
  {
    // A closure may be written before the one assignment it reads: a test registers the cleanup of a
    // process before starting it (`let proc`, `t.teardown(() => proc?.kill())`, then `proc = await
    // start…`), and buildApp hands the sandbox a logger callback before the Fastify instance (and its
    // logger) exists. A `const` at the assignment could not be read by those closures.
    rules: { 'prefer-const': ['error', { destructuring: 'all', ignoreReadBeforeAssign: true }] },
  },
  {
    // `===` on a secret returns as soon as a character differs, so its time tells a caller how much of
    // a guess was right: the server compares credentials with sameSecret (server/auth/secrets.ts).
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: "BinaryExpression[operator=/^[!=]==?$/]:matches([left.name=/secret|adminToken/i], [left.property.name=/secret|adminToken/i], [right.name=/secret|adminToken/i], [right.property.name=/secret|adminToken/i]):not([left.type='Literal'], [right.type='Literal'], [right.type='Identifier'][right.name='undefined'])",
        message: 'Compare a secret with sameSecret (server/auth/secrets.ts), not === or !==.',
      }],
    },
  },
  {
    // The kill loop's workers run until the killer, another task, sets `killed`: the rule cannot
    // see a change made while the loop awaits.
    files: ['test/reliability/kill-loop.ts'],
    rules: { 'no-unmodified-loop-condition': 'off' },
  },
]
