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
