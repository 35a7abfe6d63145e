import t from 'tap'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { generatedPages, renderPage } from '../../openapi/docs.js'
import { catalogue } from '../../scenarios/catalogue.js'
import { checks } from '../helpers/report.js'
import { packageRoot } from '../../server/paths.js'

/**
 * The README is a newcomer's first read and says only what is true today; what it leaves out is in
 * docs/, whose generated sections (examples, the scenario catalogue, the settings, the report's checks)
 * stay equal to their sources.
 */
const read = (file: string): string => readFileSync(join(packageRoot, file), 'utf8')
const readme = read('README.md')
const docPages = readdirSync(join(packageRoot, 'docs')).filter(f => f.endsWith('.md')).map(f => `docs/${f}`)

/** Markdown without its fenced code blocks: what a reader reads as prose. */
const prose = (md: string): string => md.replace(/^```[\s\S]*?^```/gm, '')
/** The fenced code blocks of a page: what a reader runs. */
const code = (md: string): string => [...md.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map(m => m[1]).join('\n')

t.test('every generated section of the README and docs/ is what its source generates', async t => {
  for (const page of Object.keys(generatedPages)) {
    const text = read(page)
    t.equal(text, renderPage(page, text), `${page} drifted from its sources: run \`npm run docs\``)
  }
  t.throws(() => renderPage('docs/report.md', 'no markers'), /docs\/report\.md lacks the <!-- checks:start -->/)
})

t.test('every scenario and every check of the report is documented', async t => {
  const scenarios = read('docs/scenarios.md')
  for (const s of catalogue) t.match(scenarios, `\`${s.name}`, `${s.name} is documented`)
  const report = read('docs/report.md')
  for (const c of checks) t.match(report, `\`${c.id}\``, `${c.id} is documented`)
})

t.test('every example under examples/ is shown where a reader meets it, or linked', async t => {
  const shown = new Set(Object.values(generatedPages).flatMap(sections => Object.keys(sections)))
  const linked = [readme, ...docPages.map(read)].join('\n')
  for (const file of readdirSync(join(packageRoot, 'examples'))) {
    t.ok(shown.has(`examples/${file}`) || linked.includes(`(../examples/${file})`) || linked.includes(`(examples/${file})`), `examples/${file}`)
  }
})

t.test('the README is a first read: the two commands, the quick start and its variables, a way in to every page, within 300 lines', async t => {
  const lines = readme.trimEnd().split('\n').length
  t.ok(lines <= 300, `${lines} lines`)
  t.match(code(readme), /^npm install && npm start\b/m, 'npm start, after npm install')
  t.match(code(readme), /^npm test\b/m, 'npm test')
  t.match(readme, '<!-- examples/quickstart.sh:start -->', 'the quick start, whole')
  // The script's settings are what a reader changes when a default does not fit their machine.
  const variables = [...read('examples/quickstart.sh').matchAll(/^(\w+)=\$\{\1:-/gm)].map(m => m[1])
  t.same(variables.sort(), ['HOOK_PORT', 'PIX'], 'the variables the quick start reads')
  for (const v of variables) t.match(prose(readme), `\`${v}\``, `the README names ${v} outside the script`)
  for (const heading of ['Over HTTP', 'In your tests\' process: `startSandbox()`', 'In Docker', 'From the command line', 'In the browser: the dashboard']) {
    t.match(readme, `\n### ${heading}\n`, `one way of using it: ${heading}`)
  }
  // docs/README.md is the index: it and the README reach every page.
  const index = read('docs/README.md')
  for (const page of docPages.filter(p => p !== 'docs/README.md')) {
    const name = page.slice('docs/'.length)
    t.ok(index.includes(`](${name})`), `docs/README.md lists ${name}`)
  }
  t.match(readme, '](docs/README.md)')
})

t.test('the README and docs/ offer the package and the image as they exist today: a tarball and a local build, until the first release', async t => {
  // docs/release.md is where the published names are, once there are any.
  for (const page of ['README.md', ...docPages.filter(p => p !== 'docs/release.md')]) {
    // In a code block or in the prose's inline code alike.
    const text = read(page)
    t.notMatch(text, /npm (i|install|add)\b[^\n#`]*\spix-sandbox(@[\w.^~-]+)?[\s`]/, `${page}: no install of pix-sandbox from the registry`)
    t.notMatch(text, /docker pull[^\n#`]*pix-sandbox/, `${page}: no image to pull`)
    if (/docker run [^\n#`]*pix-sandbox/.test(text)) t.match(code(text), /docker build -t pix-sandbox /, `${page}: the image it runs is built first`)
  }
  t.match(readme, '](docs/release.md)', 'the README says where the first release will change this')
})
