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
      comment: 'store/records.ts (the record schemas) and store/state.ts (the record types) import only each other, domain, the scenario types and TypeBox.',
      from: { path: '^server/store/(records|state)\\.ts$' },
      to: { pathNot: ['^server/store/(records|state)\\.ts$', '^server/domain/', '^scenarios/types\\.ts$', '^node_modules/@sinclair/typebox/'] },
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
      comment: 'Services know neither routes, nor the app, nor how they are wired, nor the edge around them (journal capture, report, faults).',
      from: { path: ['^server/services/', '^server/webhooks/'] },
      to: { path: ['^server/routes/', '^server/app\\.ts$', '^server/sandbox\\.ts$', '^server/serve\\.ts$', '^server/index\\.ts$', '^server/main\\.ts$', '^server/journal/', '^server/report/', '^server/faults\\.ts$'] },
    },
    {
      name: 'journal-below-services',
      severity: 'error',
      comment: 'The request journal records what crossed the edge: it knows errors, the record types, the shared string table and the webhook types, never a service.',
      from: { path: '^server/journal/' },
      to: { path: '^(server|scenarios|client|cli)/', pathNot: ['^server/journal/', '^server/errors/', '^server/store/state\\.ts$', '^server/store/intern\\.ts$', '^server/webhooks/types\\.ts$'] },
    },
    {
      name: 'report-through-ports',
      severity: 'error',
      comment: 'The integration report reads the journal, the delivery log and the records through ports; it never imports a service, a route or the wiring.',
      from: { path: '^server/report/' },
      to: { path: '^(server|scenarios|client|cli)/', pathNot: ['^server/report/', '^server/domain/', '^server/store/state\\.ts$', '^server/journal/journal\\.ts$', '^server/webhooks/', '^server/errors/', '^server/ports\\.ts$', '^server/auth/tokens\\.ts$'] },
    },
    {
      name: 'faults-at-the-edge',
      severity: 'error',
      comment: 'The transport faults plugin reads the scenario catalogue and answers in the error shapes; it reaches the sandbox only through app.sandbox.',
      from: { path: '^server/faults\\.ts$' },
      to: { path: '^(server|client|cli)/', pathNot: ['^server/errors/'] },
    },
    {
      name: 'log-stream-is-a-leaf',
      severity: 'error',
      from: { path: '^server/log-stream\\.ts$' },
      to: { path: '^(server|scenarios|client|cli)/', pathNot: '^server/log-stream\\.ts$' },
    },
    {
      name: 'cli-over-the-client',
      severity: 'error',
      comment: 'The command line talks to a running sandbox through the typed client; of the server it reads only the record types leaf (the list of event types).',
      from: { path: '^cli/' },
      to: { path: '^(server|scenarios)/', pathNot: '^server/store/state\\.ts$' },
    },
    {
      name: 'nothing-imports-the-cli',
      severity: 'error',
      comment: 'The server, the catalogue and the client never load the command line (bin/pix-sandbox.js picks one or the other).',
      from: { path: '^(server|scenarios|client)/' },
      to: { path: '^cli/' },
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
