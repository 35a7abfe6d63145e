// `npm run build`, after tsc: the entry points of dist/ (the command, the package's startSandbox and
// the webhook sender thread) are replaced by one esbuild bundle each, dependencies included. A start
// then reads and compiles one file instead of resolving, reading and compiling some 400 modules:
// about a third less CPU to healthy (bench/README.md). tsc's output stays beside them for the types
// (.d.ts) and the files nothing bundles (healthcheck.js, the client).
import { build } from 'esbuild'

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  // Some dependencies are CommonJS and call require() for Node's own modules.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  external: [
    // Serves its static files from its own folder (__dirname): it stays a package of its own.
    '@fastify/swagger-ui',
    // Loaded on first use only (the first token, an https start): not parsed by a start that does
    // not need them.
    '@peculiar/x509',
    'undici',
    // The package's client stays the file `pix-sandbox/client` is, so its classes (PixApiError) are
    // the same ones whichever entry a test imports them from.
    '../client/index.js',
  ],
}

await build({ ...common, entryPoints: { main: 'server/main.ts', index: 'server/index.ts' }, outdir: 'dist/server', allowOverwrite: true })
await build({ ...common, entryPoints: ['server/webhooks/sender-worker.ts'], outdir: 'dist/server/webhooks', allowOverwrite: true, external: ['undici'] })
