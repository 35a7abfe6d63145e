// Module hooks for the tests (registered by register.mjs, named in .taprc): esbuild strips the types
// of each TypeScript file, keeping its lines where they are. Coverage counts lines, so a transform
// that joins them (tsx minifies whitespace) reports a function no test calls as covered;
// test/loader/coverage.test.ts checks that this one does not.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const typescript = /\.m?ts$/
const relative = /^\.{1,2}\//

const tapOfFile = new URL('./tap-of-file.mjs', import.meta.url).href

/**
 * The sources import './x.js' for the file './x.ts' (TypeScript's NodeNext resolution). A test file
 * that test/loader/group.ts runs (its URL ends in ?tap-group=<its name>) gets its own subtest as tap.
 */
export async function resolve (specifier, context, nextResolve) {
  if (specifier === 'tap' && context.parentURL?.includes('?tap-group=')) {
    const file = new URL(context.parentURL).searchParams.get('tap-group')
    return { url: `${tapOfFile}?file=${encodeURIComponent(file)}`, shortCircuit: true }
  }
  if (relative.test(specifier) && specifier.endsWith('.js') && context.parentURL?.startsWith('file:')) {
    const ts = new URL(specifier.slice(0, -3) + '.ts', context.parentURL)
    if (existsSync(ts) && !existsSync(new URL(specifier, context.parentURL))) return nextResolve(ts.href, context)
  }
  return nextResolve(specifier, context)
}

const options = { loader: 'ts', format: 'esm', target: `node${process.versions.node}`, sourcemap: 'inline' }
const esbuildVersion = createRequire(import.meta.url)('esbuild/package.json').version
// Each test process (a file, or a group of files) transforms for itself: one that finds every file
// it imports already transformed does not start esbuild. The key is the file's path and content,
// esbuild's version and the options.
const cache = fileURLToPath(new URL('../../node_modules/.cache/test-loader/', import.meta.url))
let esbuild

export async function load (url, context, nextLoad) {
  if (!url.startsWith('file:') || !typescript.test(new URL(url).pathname)) return nextLoad(url, context)
  const file = fileURLToPath(url)
  // Read through the hooks registered before these, tap's process info among them: it records each
  // file a test loads (what `tap --changed` and `tap --watch` rerun a test for).
  const source = String((await nextLoad(url, { ...context, format: 'module' })).source)
  const key = createHash('sha256').update(JSON.stringify([file, esbuildVersion, options])).update(source).digest('hex')
  const cached = join(cache, key + '.js')
  let code
  try {
    code = await readFile(cached, 'utf8')
  } catch {
    esbuild ??= await import('esbuild')
    code = (await esbuild.transform(source, { ...options, sourcefile: file })).code
    // Written whole, then renamed: another test process may read the same entry at the same time.
    mkdirSync(cache, { recursive: true })
    const partial = `${cached}.${process.pid}`
    writeFileSync(partial, code)
    renameSync(partial, cached)
  }
  return { format: 'module', source: code, shortCircuit: true }
}
