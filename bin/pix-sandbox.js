#!/usr/bin/env node
// The package's command (`npx pix-sandbox`): runs the compiled server (dist/server/main.js) or command line (dist/cli/bin.js) in this
// same process, so signals, exit codes and stdio behave exactly as with `node dist/server/main.js`.
// Arguments pass through untouched (server/main.ts reads process.argv.slice(2)); `--help` lists every
// setting. The published package carries dist/ and no TypeScript; a git checkout has the sources
// beside this file and runs them (below).
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'

const { engines, devEngines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
// `pix-sandbox [flags]` and `pix-sandbox serve [flags]` serve; `pix-sandbox <command>` (help, account,
// tail, ...) acts on a running sandbox, its options of every command before it too (`pix-sandbox --json
// clock`). Each loads only its own modules: serving never loads the CLI.
const args = process.argv.slice(2)
let at = 0
// --json and --url are the command line's alone; --admin-token is a server flag too, so it is the
// command line's only when a command follows.
let commandLineOnly = false
for (let m; at < args.length && (m = /^--(json|url|admin-token)(=|$)/.exec(args[at])); at += m[2] === '' && m[1] !== 'json' ? 2 : 1) {
  if (m[1] !== 'admin-token') commandLineOnly = true
}
const first = args[at]
const serving = first === undefined ? !commandLineOnly : first === 'serve' || first.startsWith('-')
const sources = fileURLToPath(new URL(serving ? '../server/main.ts' : '../cli/bin.ts', import.meta.url))

const fail = message => {
  process.stderr.write(`pix-sandbox: ${message}\n`)
  process.exit(1)
}

if (existsSync(sources)) {
  // A checkout (`npm run cli -- <command>`, or npx in it): its sources through tsx, on the Nodes its
  // tools and tests run on (devEngines, Node 20.19 among them) rather than those the package promises
  // installers (engines), with no build, and as they are now rather than as last built.
  const loaded = await Promise.all([import('semver'), import('tsx/esm/api')]).catch(() => null)
  if (loaded === null) fail('this checkout\'s dependencies are not installed: run `npm ci` first')
  const [{ default: semver }, tsx] = loaded
  const range = devEngines?.runtime?.version
  if (range && !semver.satisfies(process.versions.node, range)) fail(`this checkout needs Node ${range} (devEngines), this is ${process.version}`)
  tsx.register()
  await import(pathToFileURL(sources).href)
} else {
  // An older Node than package.json's engines would fail later on a syntax or API it lacks, with a
  // stack trace that names neither Node nor the version needed (engines is a plain `>=X.Y.Z`).
  const needed = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(engines?.node ?? '')
  if (needed) {
    const have = process.versions.node.split('.').map(Number)
    const want = needed.slice(1).map(n => Number(n ?? 0))
    const differs = want.findIndex((w, i) => have[i] !== w)
    if (differs !== -1 && have[differs] < want[differs]) fail(`needs Node ${engines.node}, this is ${process.version}: install a newer Node`)
  }
  const compiled = fileURLToPath(new URL(serving ? '../dist/server/main.js' : '../dist/cli/bin.js', import.meta.url))
  if (!existsSync(compiled)) fail(`${compiled} is missing: the package is incomplete, install it again`)
  await import(pathToFileURL(compiled).href)
}
