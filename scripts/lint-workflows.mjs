// The GitHub Actions workflows of the repository, checked by GitHub's own parser
// (@actions/workflow-parser, from actions/languageservices: the schema and expression rules the
// workflow editor and the Actions service share): the keys and values the workflow schema allows,
// the expressions' syntax, and the contexts each place may name. `npm run lint:workflows`, part of
// `npm test` (scripts/checks.mjs). It lints .github/workflows/ and every workflow among examples/ (a
// YAML file with `jobs`), or the files named on its command line. The parser imports its schema as
// JSON without an import attribute (it is written for a bundler), so this runs through tsx, which
// loads it: `node --import tsx scripts/lint-workflows.mjs [files...]`.
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'

const root = fileURLToPath(new URL('..', import.meta.url))

/**
 * The problems of one workflow, each `line:column message` (the parser's own words), none when it
 * is valid. `name` is how the messages name the file.
 */
export async function lintWorkflow (name, content) {
  const result = parseWorkflow({ name, content }, new NoOperationTraceWriter())
  // Converting checks what parsing leaves (job dependencies, matrix and concurrency shapes); it adds its errors to the same list.
  if (result.value !== undefined) await convertWorkflowTemplate(result.context, result.value)
  return result.context.errors.getErrors().map(e => {
    const at = e.range ? `${e.range.start.line}:${e.range.start.column} ` : ''
    return `${at}${e.rawMessage}`
  })
}

/** The repository's workflows: .github/workflows/*.yml and the examples that are workflows. */
export function workflowFiles () {
  const files = []
  const workflows = join(root, '.github', 'workflows')
  if (existsSync(workflows)) files.push(...readdirSync(workflows).filter(f => /\.ya?ml$/.test(f)).sort().map(f => join(workflows, f)))
  const examples = join(root, 'examples')
  for (const f of readdirSync(examples).filter(f => /\.ya?ml$/.test(f)).sort()) {
    const doc = parse(readFileSync(join(examples, f), 'utf8'))
    if (doc !== null && typeof doc === 'object' && 'jobs' in doc) files.push(join(examples, f))
  }
  return files
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = process.argv.length > 2 ? process.argv.slice(2) : workflowFiles()
  let failed = false
  for (const file of files) {
    const name = relative(process.cwd(), file)
    const problems = await lintWorkflow(name, readFileSync(file, 'utf8'))
    for (const p of problems) process.stderr.write(`${name}:${p}\n`)
    failed ||= problems.length > 0
  }
  process.stdout.write(`lint-workflows: ${files.length} workflow${files.length === 1 ? '' : 's'}, ${failed ? 'problems above' : 'no problem'}\n`)
  if (failed) process.exitCode = 1
}
