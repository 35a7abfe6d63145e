// `npm run build`, after tsc: the entry points of dist/ (the command, the package's startSandbox and
// the webhook sender thread) are replaced by one esbuild bundle each, dependencies included. A start
// then reads and compiles one file instead of resolving, reading and compiling some 400 modules:
// about a third less CPU to healthy (bench/README.md). tsc's output stays beside them for the types
// (.d.ts) and the files nothing bundles (healthcheck.js, the client).
import { build } from 'esbuild'
import { readFile } from 'node:fs/promises'

/**
 * @fastify/swagger-ui serves its static files from its own folder (__dirname), which in a bundle would
 * be dist/server/: its __dirname becomes the folder the package is installed in, found at run time.
 */
const swaggerUiFolder = {
  name: 'swagger-ui-folder',
  setup (b) {
    b.onLoad({ filter: /node_modules[\\/]@fastify[\\/]swagger-ui[\\/](index|lib[\\/]routes)\.js$/ }, async args => {
      const sub = args.path.endsWith('routes.js') ? ", 'lib'" : ''
      const folder = `require('node:path').join(require('node:path').dirname(require.resolve('@fastify/swagger-ui/package.json'))${sub})`
      return { contents: (await readFile(args.path, 'utf8')).replaceAll('__dirname', folder), loader: 'js' }
    })
  },
}

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
  plugins: [swaggerUiFolder],
  // Some dependencies are CommonJS and call require() for Node's own modules.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  external: [
    // Loaded on first use only (the first token, an https start): not parsed by a start that does
    // not need them.
    '@peculiar/x509',
    'undici',
    // The package's client stays the file `pix-sandbox/client` is, so its classes (PixApiError) are
    // the same ones whichever entry a test imports them from.
    '../client/index.js',
  ],
}

// `node scripts/bundle.mjs --command-only <folder>` writes the command alone (<folder>/server/main.js
// and its sender thread) from the sources: the tests start the sandbox's process from there
// (test/helpers/command-bundle.ts). <folder> sits inside the package, so the package root is found
// above it as from dist/.
const commandOnly = process.argv.indexOf('--command-only')
const out = commandOnly === -1 ? 'dist' : process.argv[commandOnly + 1]
const entryPoints = commandOnly === -1 ? { main: 'server/main.ts', index: 'server/index.ts' } : { main: 'server/main.ts' }
await build({ ...common, entryPoints, outdir: `${out}/server`, allowOverwrite: true })
await build({ ...common, entryPoints: ['server/webhooks/sender-worker.ts'], outdir: `${out}/server/webhooks`, allowOverwrite: true, external: ['undici'] })
