import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { catalogueMarkdown } from '../scenarios/catalogue.js'
import { catalogueOf, checksMarkdown } from '../server/report/checks.js'
import { dialects } from '../server/dialects/index.js'
import { apiPix } from '../server/dialects/api-pix/index.js'
import { defaultConfig, settingsMarkdown } from '../server/config.js'
import { scenarioTableMarkdown, type Operation } from '../scenarios/operations.js'
import { packageRoot } from '../server/paths.js'

/**
 * The generated sections of the README and of docs/: each lives between markers in its page and is
 * rewritten from its one source by `npm run docs`; test/unit/readme.test.ts fails when one drifts.
 *
 * The examples are files under examples/, shown verbatim where a reader meets them: test/artifact/pack.test.ts
 * runs them from the installed package, and test/flows/quickstart.test.ts the quick start against a
 * running sandbox, so what a page shows is what passes.
 */
const example = (file: string, language: string) => (): string =>
  '```' + language + '\n' + readFileSync(join(packageRoot, 'examples', file), 'utf8').trimEnd() + '\n```'

/**
 * API Pix's operations as openapi/openapi.json lists them (tag "API Pix"), each path as docs/api-pix.md
 * writes it: without the default base path (test/routes/openapi.test.ts keeps the file current).
 */
function apiPixOperations (): Operation[] {
  const doc = JSON.parse(readFileSync(join(packageRoot, 'openapi', 'openapi.json'), 'utf8')) as { paths: Record<string, Record<string, { tags?: string[], operationId?: string }>> }
  const base = defaultConfig().apiPixBasePath
  return Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods)
    .filter(([, op]) => op.tags?.includes('API Pix') === true && op.operationId !== undefined)
    .map(([method, op]) => ({ method: method.toUpperCase(), path: path.startsWith(`${base}/`) ? path.slice(base.length) : path, operationId: op.operationId! })))
}

/** Page (from the repository's root) -> its sections, by marker name. */
export const generatedPages: Record<string, Record<string, () => string>> = {
  'README.md': {
    'examples/quickstart.sh': example('quickstart.sh', 'sh'),
    'examples/node-test.test.ts': example('node-test.test.ts', 'ts'),
  },
  'docs/testing.md': {
    'examples/vitest.test.mjs': example('vitest.test.mjs', 'js'),
    'examples/tap.test.mjs': example('tap.test.mjs', 'js'),
    'examples/container.test.mjs': example('container.test.mjs', 'js'),
  },
  'docs/api-pix.md': {
    'examples/pix-automatico-year.test.ts': example('pix-automatico-year.test.ts', 'ts'),
    scenarios: () => scenarioTableMarkdown(apiPixOperations(), apiPix.scenarioEndpoints),
  },
  'docs/docker.md': { 'examples/docker-compose.yml': example('docker-compose.yml', 'yaml') },
  'docs/scenarios.md': { scenarios: catalogueMarkdown },
  'docs/configuration.md': { settings: settingsMarkdown },
  'docs/report.md': { checks: () => checksMarkdown(catalogueOf(dialects.map(d => d.report ?? {})), Object.fromEntries(dialects.flatMap(d => d.report ? [[d.name, d.report.title]] : []))) },
}

/** The page with its generated sections rewritten; a page that lacks a section's markers throws. */
export function renderPage (page: string, text: string): string {
  let out = text
  for (const [name, render] of Object.entries(generatedPages[page])) {
    const start = `<!-- ${name}:start -->`
    const end = `<!-- ${name}:end -->`
    const i = out.indexOf(start)
    const j = out.indexOf(end)
    if (i === -1 || j === -1 || j < i) throw new Error(`${page} lacks the ${start} ... ${end} markers`)
    out = `${out.slice(0, i + start.length)}\n${render()}\n${out.slice(j)}`
  }
  return out
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  for (const page of Object.keys(generatedPages)) {
    const path = join(packageRoot, page)
    writeFileSync(path, renderPage(page, readFileSync(path, 'utf8')))
  }
  process.stdout.write(`generated sections rewritten: ${Object.keys(generatedPages).join(', ')}\n`)
}
