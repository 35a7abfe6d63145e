import t from 'tap'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { catalogue } from '../../scenarios/catalogue.js'
import { ENDPOINTS } from '../../scenarios/types.js'

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
