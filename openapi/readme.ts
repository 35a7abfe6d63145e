import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { catalogueMarkdown } from '../scenarios/catalogue.js'
import { checksMarkdown } from '../server/report/checks.js'
import { defaultConfig, settingsMarkdown } from '../server/config.js'
import { scenarioTableMarkdown, type Operation } from '../scenarios/operations.js'
import { packageRoot } from '../server/paths.js'

/**
 * The README's generated sections (scenario catalogue, settings) live between markers and are
 * rewritten from their single source by `npm run docs`; a test fails when they drift.
 */
export const generatedSections: Record<string, () => string> = {
  scenarios: catalogueMarkdown,
  settings: settingsMarkdown,
}

/**
 * The README's examples are files under examples/, shown verbatim: test/artifact/pack.test.ts runs
 * them from the installed package, and test/flows/quickstart.test.ts the quick start's commands
 * against a running sandbox, so what the README shows is what passes.
 */
export const readmeExamples: Record<string, string> = {
  'node-test.test.ts': 'ts',
  'pix-automatico-year.test.ts': 'ts',
  'vitest.test.mjs': 'js',
  'tap.test.mjs': 'js',
  'container.test.mjs': 'js',
  'docker-compose.yml': 'yaml',
  'quickstart.sh': 'sh',
}

for (const [file, language] of Object.entries(readmeExamples)) {
  generatedSections[`examples/${file}`] = () => '```' + language + '\n' + readFileSync(join(packageRoot, 'examples', file), 'utf8').trimEnd() + '\n```'
}

export function renderReadme (readme: string): string {
  return render(readme, generatedSections, 'README.md')
}

/** docs/report.md's generated section: the catalogue of the integration report's checks. */
export const reportSections: Record<string, () => string> = { checks: checksMarkdown }

export function renderReportDoc (doc: string): string {
  return render(doc, reportSections, 'docs/report.md')
}

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

/** docs/api-pix.md's generated section: where the scenarios apply, from scenarios/operations.ts and the catalogue. */
export const apiPixSections: Record<string, () => string> = { scenarios: () => scenarioTableMarkdown(apiPixOperations()) }

export function renderApiPixDoc (doc: string): string {
  return render(doc, apiPixSections, 'docs/api-pix.md')
}

function render (text: string, sections: Record<string, () => string>, file: string): string {
  let out = text
  for (const [name, render] of Object.entries(sections)) {
    const start = `<!-- ${name}:start -->`
    const end = `<!-- ${name}:end -->`
    const i = out.indexOf(start)
    const j = out.indexOf(end)
    if (i === -1 || j === -1 || j < i) throw new Error(`${file} lacks the ${start} ... ${end} markers`)
    out = `${out.slice(0, i + start.length)}\n${render()}\n${out.slice(j)}`
  }
  return out
}

export const readmePath = join(packageRoot, 'README.md')
export const reportDocPath = join(packageRoot, 'docs', 'report.md')
export const apiPixDocPath = join(packageRoot, 'docs', 'api-pix.md')

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  writeFileSync(readmePath, renderReadme(readFileSync(readmePath, 'utf8')))
  writeFileSync(reportDocPath, renderReportDoc(readFileSync(reportDocPath, 'utf8')))
  writeFileSync(apiPixDocPath, renderApiPixDoc(readFileSync(apiPixDocPath, 'utf8')))
  process.stdout.write('README.md, docs/report.md and docs/api-pix.md generated sections rewritten\n')
}
