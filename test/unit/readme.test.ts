import t from 'tap'
import { readFileSync } from 'node:fs'
import { apiPixDocPath, readmePath, renderApiPixDoc, renderReadme, renderReportDoc, reportDocPath } from '../../openapi/readme.js'
import { catalogue } from '../../scenarios/catalogue.js'
import { checks } from '../../server/report/checks.js'

t.test('the README scenario and settings tables are the ones the catalogue and config generate', async t => {
  const readme = readFileSync(readmePath, 'utf8')
  t.equal(readme, renderReadme(readme), 'README.md drifted from its sources: run `npm run docs`')
  for (const s of catalogue) t.match(readme, `\`${s.name}`, `${s.name} is documented`)
})

t.test('docs/api-pix.md\'s table of where the scenarios apply is the one scenarios/operations.ts and the catalogue generate', async t => {
  const doc = readFileSync(apiPixDocPath, 'utf8')
  t.equal(doc, renderApiPixDoc(doc), 'docs/api-pix.md drifted from scenarios/operations.ts or the catalogue: run `npm run docs`')
  t.throws(() => renderApiPixDoc('no markers'), /docs\/api-pix\.md lacks the <!-- scenarios:start -->/)
})

t.test('docs/report.md lists every check of the report\'s catalogue, as the catalogue generates it', async t => {
  const doc = readFileSync(reportDocPath, 'utf8')
  t.equal(doc, renderReportDoc(doc), 'docs/report.md drifted from server/report/checks.ts: run `npm run docs`')
  for (const c of checks) t.match(doc, `\`${c.id}\``, `${c.id} is documented`)
  t.throws(() => renderReportDoc('no markers'), /docs\/report\.md lacks the <!-- checks:start -->/)
})
