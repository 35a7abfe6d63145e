import t from 'tap'
import { readFileSync } from 'node:fs'
import { readmePath, renderReadme } from '../../openapi/readme.js'
import { catalogue } from '../../scenarios/catalogue.js'

t.test('the README scenario and settings tables are the ones the catalogue and config generate', async t => {
  const readme = readFileSync(readmePath, 'utf8')
  t.equal(readme, renderReadme(readme), 'README.md drifted from its sources: run `npm run docs`')
  for (const s of catalogue) t.match(readme, `\`${s.name}`, `${s.name} is documented`)
})
