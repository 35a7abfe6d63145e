import t from 'tap'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { catalogue } from '../../scenarios/catalogue.js'
import { hasScenario, scenarioParam } from '../../scenarios/resolver.js'
import { ENDPOINTS, type AppliedScenario } from '../../scenarios/types.js'

const testRoot = new URL('..', import.meta.url).pathname

function testFiles (dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap(e =>
    e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [])
}

t.test('every catalogue entry is well formed and exercised by a test that sends it', async t => {
  const self = new URL(import.meta.url).pathname
  const sources = testFiles(testRoot).filter(f => f !== self && !f.endsWith('readme.test.ts')).map(f => readFileSync(f, 'utf8'))
  for (const s of catalogue) {
    t.match(s.name, /^[A-Z][A-Z0-9_]+$/, `${s.name}: an upper-case name`)
    t.ok(s.endpoints.length > 0 && s.endpoints.every(e => (ENDPOINTS as readonly string[]).includes(e)), `${s.name}: known endpoints`)
    t.ok(s.effect.length > 20, `${s.name}: its effect is described`)
    // A scenario is sent as a header value or armed; either way its name appears in a string literal.
    t.ok(sources.some(src => new RegExp(`['"\`][^'"\`]*\\b${s.name}\\b`).test(src)), `${s.name}: triggered by some test`)
  }
})

/**
 * The machinery asks about a scenario by its name in the catalogue (`ScenarioName`, derived from
 * scenarios/*.ts): a name the catalogue does not have does not compile. Each line under
 * `@ts-expect-error` is such a name; if one ever compiled, `tsc --noEmit` (the first step of `npm test`)
 * would fail on the unused directive. The function never runs: the compiler is what is under test.
 */
function askedByName (applied: AppliedScenario[]): void {
  // @ts-expect-error a misspelt name
  hasScenario(applied, 'INSUFICIENT_FUNDS')
  // @ts-expect-error nor for a parameter
  scenarioParam(applied, 'SETTLEMENT_DELAYS', 'ms', 0)
  // @ts-expect-error a name is upper case, as the catalogue spells it (a header is read case-insensitively, the code is not)
  hasScenario(applied, 'insufficient_funds')
}

t.test('the machinery asks about scenarios the catalogue has, by their names', async t => {
  t.type(askedByName, 'function', 'the names above are checked by the compiler, never run')
  const applied = [{ name: 'SETTLEMENT_DELAY', params: { ms: '500' } }]
  t.ok(hasScenario(applied, 'SETTLEMENT_DELAY'))
  t.notOk(hasScenario(applied, 'INSUFFICIENT_FUNDS'))
  t.equal(scenarioParam(applied, 'SETTLEMENT_DELAY', 'ms', 0), 500)
  t.equal(scenarioParam(applied, 'AUTO_PAY', 'ms', 7), 7)
})
