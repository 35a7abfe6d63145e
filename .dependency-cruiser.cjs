/**
 * The import rules of CONTRIBUTING.md's "Layers" table, checked by `npm run deps` (part of `npm test`).
 * Type-only imports count: a circle through types is still a circle.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circle, type imports included.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'server/domain imports only itself (and the record types of store/state.ts).',
      from: { path: '^server/domain/' },
      to: { pathNot: ['^server/domain/', '^server/store/state\\.ts$'], dependencyTypesNot: ['core'] },
    },
    {
      name: 'domain-no-io',
      severity: 'error',
      comment: 'server/domain does no I/O and knows no framework.',
      from: { path: '^server/domain/' },
      to: { dependencyTypes: ['core', 'npm'] },
    },
    {
      name: 'records-are-a-leaf',
      severity: 'error',
      comment: 'store/state.ts, the record types, imports only domain and the scenario types.',
      from: { path: '^server/store/state\\.ts$' },
      to: { pathNot: ['^server/domain/', '^scenarios/types\\.ts$'] },
    },
    {
      name: 'store-below-services',
      severity: 'error',
      comment: 'server/store imports only itself, domain and errors/startup.ts.',
      from: { path: '^server/store/' },
      to: { path: '^server/', pathNot: ['^server/store/', '^server/domain/', '^server/errors/startup\\.ts$'] },
    },
    {
      name: 'engine-is-a-leaf',
      severity: 'error',
      from: { path: '^server/engine/' },
      to: { path: '^(server|scenarios)/', pathNot: '^server/engine/' },
    },
    {
      name: 'ports-import-no-service',
      severity: 'error',
      comment: 'ports.ts names what services may be given; it cannot depend on any of them.',
      from: { path: '^server/ports\\.ts$' },
      to: { path: ['^server/services/', '^server/routes/', '^server/app\\.ts$', '^server/sandbox\\.ts$'] },
    },
    {
      name: 'services-not-above',
      severity: 'error',
      comment: 'Services know neither routes, nor the app, nor how they are wired.',
      from: { path: ['^server/services/', '^server/webhooks/'] },
      to: { path: ['^server/routes/', '^server/app\\.ts$', '^server/sandbox\\.ts$', '^server/serve\\.ts$', '^server/index\\.ts$', '^server/main\\.ts$'] },
    },
    {
      name: 'scenarios-outside-server',
      severity: 'error',
      comment: 'The scenario catalogue uses only the domain of the server (its lists and types).',
      from: { path: '^scenarios/' },
      to: { path: '^server/', pathNot: '^server/domain/' },
    },
    {
      name: 'client-types-only',
      severity: 'error',
      comment: 'The typed client ships to integrators: nothing of the server at run time.',
      from: { path: '^client/' },
      to: { path: '^server/', dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
}
