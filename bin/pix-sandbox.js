#!/usr/bin/env node
// The package's command (`npx pix-sandbox`): runs the compiled server (dist/server/main.js) when the
// package was built, else the TypeScript sources through tsx, in this same process so signals, exit
// codes and stdio behave exactly as with `node dist/server/main.js`. Arguments pass through untouched
// (server/main.ts reads process.argv.slice(2)); `--help` lists every setting.
import { existsSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
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
