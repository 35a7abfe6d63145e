import t from 'tap'
import { bearer, buildTestApp, newAccount } from '../helpers/app.js'

/**
 * Conformance of the standard family (/api/* and /balance) to the rules of the spec that cut across
 * endpoints (section 7's extended shape, section 8's limits) and that no capability test covered.
 */

t.test('spec 7: in the extended shape `code` is HTTP_ERROR on every generic error (those with `error`, no errorCode)', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 100 })
  const generic = [
    await app.inject({ method: 'GET', url: '/balance' }), // 401
    await app.inject({ method: 'GET', url: '/api/med', headers: bearer('not-a-token') }), // 401
    await app.inject({ method: 'POST', url: '/api/pix/refund-in/nope', headers: bearer(acc.token), payload: { refundValue: 1 } }), // 404
    await app.inject({ method: 'GET', url: '/api/med', headers: { ...bearer(acc.token), 'x-sandbox-scenario': 'INTERNAL_ERROR' } }), // 500
  ]
  for (const res of generic) {
    const body = res.json()
    t.type(body.error, 'string', `${res.statusCode} is generic`)
    t.notOk('errorCode' in body, `${res.statusCode}: no errorCode`)
    t.equal(body.code, 'HTTP_ERROR', `${res.statusCode}: code is HTTP_ERROR, not a business code without errorCode`)
  }
  const business = await app.inject({ method: 'GET', url: '/api/med', headers: { ...bearer(acc.token), 'x-sandbox-scenario': 'RATE_LIMITED' } })
  t.equal(business.statusCode, 429)
  t.equal(business.json().code, business.json().errorCode, 'a business error: code and errorCode agree')
})

t.test('spec 7, 7.10: a malformed date is listed with the other invalid query fields of GET /api/med, one entry each', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const res = await app.inject({ method: 'GET', url: '/api/med?status=FOO&startDate=ontem&endDate=2026-03-10T25&pageSize=101', headers: bearer(acc.token) })
  t.equal(res.statusCode, 400)
  const message: string[] = res.json().message
  t.equal(res.json().code, 'HTTP_ERROR')
  for (const field of ['status', 'startDate', 'endDate', 'pageSize']) t.equal(message.filter(m => m.startsWith(`${field} `)).length, 1, `one entry for ${field}`)
  t.equal(message.length, 4)
})
