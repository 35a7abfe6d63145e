import t from 'tap'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { packageRoot } from '../../server/paths.js'
import { bearer, buildTestApp } from '../helpers/app.js'
import { aTxid } from '../helpers/payins.js'
import { oauthToken, PROBLEM_TYPE } from '../helpers/api-pix.js'

/**
 * docs/api-pix.md's table of where the scenarios apply (generated from scenarios/operations.ts and the
 * catalogue; test/unit/readme.test.ts keeps it current) says what the sandbox does: each operation the
 * table gives the transport faults answers SERVICE_UNAVAILABLE when asked, in problem details, and an
 * operation that takes none ignores the header. One operation of each row without a body (a body is
 * checked before the faults run) is asked.
 */

const doc = readFileSync(join(packageRoot, 'docs', 'api-pix.md'), 'utf8')
const table = doc.slice(doc.indexOf('<!-- scenarios:start -->'), doc.indexOf('<!-- scenarios:end -->'))
const rows = table.split('\n').filter(line => line.startsWith('| `')).map(line => {
  const [operations, endpoint, scenarios] = line.slice(2, -2).split(' | ')
  return { operations: [...operations.matchAll(/`([A-Z]+) ([^`]+)`/g)].map(m => ({ method: m[1], path: m[2] })), endpoint, scenarios }
})

/**
 * A path of the table as a request reaches it: under the base path but for the open documents, its
 * parameters filled in, a list given the window it needs.
 */
function urlOf (path: string): string {
  const filled = path.replace('{txid}', aTxid(1)).replace('{token}', '0123456789abcdef0123456789abcdef').replace(/\{[A-Za-z0-9]+\}/g, '1')
  const query = path.includes('{') || path.startsWith('/.well-known') ? '' : '?inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z'
  return `${/^\/(qr|\.well-known)\//.test(path) ? '' : '/v2'}${filled}${query}`
}

t.test('the table lists the locations with the transport faults, and the payloads with none', async t => {
  t.ok(rows.length >= 10, `${rows.length} rows`)
  t.match(rows.find(r => r.operations.some(o => o.path === '/loc')), { endpoint: '`loc`', scenarios: /the transport faults/ })
  t.match(rows.find(r => r.operations.some(o => o.path === '/qr/v2/{token}')), { endpoint: 'none', scenarios: 'none' })
})

t.test('each row without a body answers as the table says: SERVICE_UNAVAILABLE where it lists the transport faults, nothing where none', async t => {
  const app = await buildTestApp(t)
  const token = await oauthToken(app)
  let asked = 0
  for (const row of rows) {
    const op = row.operations.find(o => o.method === 'GET' || o.method === 'DELETE')
    if (op === undefined) continue
    asked++
    const res = await app.inject({ method: op.method as 'GET' | 'DELETE', url: urlOf(op.path), headers: { ...bearer(token), 'x-sandbox-scenario': 'SERVICE_UNAVAILABLE' } })
    if (row.scenarios.includes('the transport faults')) {
      t.equal(res.statusCode, 503, `${op.method} ${op.path}: ${res.body}`)
      t.equal(res.json().type, `${PROBLEM_TYPE}ServicoIndisponivel`)
      t.equal(res.headers['x-sandbox-scenario-applied'], 'SERVICE_UNAVAILABLE')
    } else {
      t.not(res.statusCode, 503, `${op.method} ${op.path}: the header ignored`)
      t.equal(res.headers['x-sandbox-scenario-applied'], undefined)
    }
  }
  t.ok(asked >= 8, `${asked} rows asked`)
})
