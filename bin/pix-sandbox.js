#!/usr/bin/env node
// The package's command (`npx pix-sandbox`): runs the compiled server (dist/server/main.js) when the
// package was built, else the TypeScript sources through tsx, in this same process so signals, exit
// codes and stdio behave exactly as with `node dist/server/main.js`. Arguments pass through untouched
// (server/main.ts reads process.argv.slice(2)); `--help` lists every setting.
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

// An older Node than package.json's engines would fail later on a syntax or API it lacks, with a
// stack trace that names neither Node nor the version needed (engines is a plain `>=X.Y.Z`).
const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
const needed = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(engines?.node ?? '')
if (needed) {
  const have = process.versions.node.split('.').map(Number)
  const want = needed.slice(1).map(n => Number(n ?? 0))
  const differs = want.findIndex((w, i) => have[i] !== w)
  if (differs !== -1 && have[differs] < want[differs]) {
    process.stderr.write(`pix-sandbox: needs Node ${engines.node}, this is ${process.version}: install a newer Node\n`)
    process.exit(1)
  }
}
const compiled = fileURLToPath(new URL('../dist/server/main.js', import.meta.url))
const source = fileURLToPath(new URL('../server/main.ts', import.meta.url))

if (existsSync(compiled)) {
  await import(pathToFileURL(compiled).href)
} else if (existsSync(source)) {
  // Resolved from this package, not from the caller's working directory, so it works from anywhere.
  const { register } = await import('tsx/esm/api')
  register()
  await import(pathToFileURL(source).href)
} else {
  process.stderr.write(`pix-sandbox: neither dist/server/main.js nor server/main.ts found under ${root}\n`)
  process.exit(1)
}
