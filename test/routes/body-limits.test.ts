import t from 'tap'
import { constants } from 'node:buffer'
import { errorShapeOf } from '../helpers/errors.js'
import { SNAPSHOT_BODY_LIMIT } from '../../server/routes/sandbox/system.js'
import { bearer, buildTestApp, documentedOperations, tokenFor } from '../helpers/app.js'
import { shapeProblem, SHAPE_OF } from '../helpers/reliability.js'

/**
 * Body limits. A body is read into one string before JSON.parse, and V8 has a longest string
 * (`constants.MAX_STRING_LENGTH`): a body that long threw out of the process. Every operation's limit
 * (its own or its parser's) is below it, so such a body is a 413 in the family's shape, refused on its
 * Content-Length before a byte is read. test/flows/body-limits.test.ts sends them for real.
 */

t.test('every operation that takes a body refuses one as long as the longest string with 413 in its family\'s shape', async t => {
  const app = await buildTestApp(t)
  const token = await tokenFor(app)
  // Mercado Pago's routes take the account's own access token.
  const mercadoPagoToken = app.sandbox.store.accounts()[0].mercadoPago!.accessToken
  const operations = documentedOperations(app.swagger() as unknown as Parameters<typeof documentedOperations>[0]).filter(o => o.method !== 'GET' && o.method !== 'HEAD')
  t.ok(operations.some(o => o.path === '/__sandbox/snapshot' && o.method === 'PUT'), 'the snapshot import among them')
  t.ok(operations.length > 30, `${operations.length} operations`)
  for (const op of operations) {
    const url = op.path.replace(/\{[^}]+\}/g, 'x')
    const res = await app.inject({
      method: op.method as 'POST',
      url,
      headers: { ...bearer(op.path.startsWith('/v1/payments') ? mercadoPagoToken : token), 'content-type': 'application/json', 'content-length': String(constants.MAX_STRING_LENGTH) },
    })
    t.equal(res.statusCode, 413, `${op.method} ${op.path}`)
    t.equal(shapeProblem(SHAPE_OF[errorShapeOf(url, app.sandbox.config.apiPixBasePath)], 413, res.body), null, `${op.method} ${op.path}: its family's shape`)
  }
})

t.test('the snapshot import takes a document larger than other bodies, up to its own limit', async t => {
  const app = await buildTestApp(t)
  const exported = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).body
  // Whitespace pads the export past the 1 MB of every other body.
  const large = exported.replace(/^\{/, `{${' '.repeat(2 * 1024 * 1024)}`)
  const imported = await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', headers: { 'content-type': 'application/json' }, payload: large })
  t.equal(imported.statusCode, 200, `a document of ${large.length} bytes`)
  const over = await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', headers: { 'content-type': 'application/json', 'content-length': String(SNAPSHOT_BODY_LIMIT + 1) } })
  t.equal(over.statusCode, 413, 'one byte over the limit')
  t.equal(over.json().code, 'HTTP_ERROR')
  t.equal(over.json().message, 'The request body exceeds the maximum size')
})
