import t, { type Test } from 'tap'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { T0, bearer, buildTestApp, certHeader, fixtureAccount, tokenFor } from '../helpers/app.js'

/**
 * Error shapes of docs/gateway.md §7 for failures that happen before any handler: malformed JSON, wrong content
 * type, oversized bodies, prototype poisoning and unknown routes. Each family answers in its own shape
 * with a 4xx; nothing is a 500.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

function assertSimple (t: Test, res: LightMyRequestResponse, status: number) {
  t.equal(res.statusCode, status, `simple ${status}`)
  const body = res.json()
  t.same(Object.keys(body).sort(), ['error', 'message', 'statusCode'], 'simple shape')
  t.equal(body.statusCode, status)
  t.type(body.message, 'string')
  return body
}

function assertSandbox (t: Test, res: LightMyRequestResponse, status: number) {
  t.equal(res.statusCode, status, `sandbox ${status}`)
  const body = res.json()
  t.same(Object.keys(body).sort(), ['code', 'error', 'message', 'statusCode'], 'sandbox shape')
  t.equal(body.statusCode, status)
  t.type(body.message, 'string')
  t.type(body.code, 'string')
  return body
}

function assertExtended (t: Test, res: LightMyRequestResponse, status: number, path: string, method: string) {
  t.equal(res.statusCode, status, `extended ${status}`)
  const body = res.json()
  t.same(Object.keys(body).sort(), ['code', 'error', 'errorId', 'message', 'method', 'path', 'statusCode', 'timestamp', 'userMessage'], 'extended shape (generic error)')
  t.equal(body.statusCode, status)
  t.equal(body.timestamp, T0, 'timestamp in sandbox time')
  t.equal(body.path, path, 'public route name, without /api')
  t.equal(body.method, method)
  t.equal(body.code, 'HTTP_ERROR')
  t.type(body.userMessage, 'string')
  t.ok(body.userMessage.length > 0)
  t.match(body.errorId, UUID)
  t.type(body.error, 'string')
  return body
}

const tokenPost = (app: FastifyInstance, headers: Record<string, string>, payload: string | Buffer) =>
  app.inject({ method: 'POST', url: '/api/auth/token', headers: { 'x-ssl-client-cert': certHeader(fixtureAccount.certificate), ...headers }, payload })

t.test('malformed JSON', async t => {
  const app = await buildTestApp(t)
  const token = await tokenFor(app)
  const json = { 'content-type': 'application/json' }
  const simple = assertSimple(t, await tokenPost(app, json, '{"clientId": '), 400)
  t.equal(simple.message, 'O corpo da requisição não é um JSON válido')
  t.equal(simple.error, 'Bad Request')

  const ext = assertExtended(t, await app.inject({ method: 'POST', url: '/api/pix/cash-out', headers: { ...json, ...bearer(token) }, payload: '{"value": 1,' }), 400, '/pix/cash-out', 'POST')
  t.same(ext.message, ['O corpo da requisição não é um JSON válido'], 'message is a list on a 400 HTTP_ERROR')
  t.equal(ext.error, 'Bad Request')

  assertExtended(t, await app.inject({ method: 'POST', url: '/api/x?debug=1', headers: json, payload: '{bad' }), 400, '/x', 'POST')
  const sb = assertSandbox(t, await app.inject({ method: 'POST', url: '/__sandbox/accounts', headers: json, payload: '{"balance": }' }), 400)
  t.equal(sb.code, 'HTTP_ERROR')
  assertSimple(t, await app.inject({ method: 'PUT', url: '/cob/abcdefghijklmnopqrstuvwxyz123', headers: { ...json, ...bearer(token) }, payload: '[1,' }), 400)
})

t.test('validation errors: one message per invalid field in the extended shape', async t => {
  const app = await buildTestApp(t)
  const token = await tokenFor(app)
  const res = await app.inject({ method: 'POST', url: '/api/pix/cash-out', headers: bearer(token), payload: {} })
  const body = assertExtended(t, res, 400, '/pix/cash-out', 'POST')
  t.ok(Array.isArray(body.message), 'message is an array')
  t.ok(body.message.length >= 3, 'one entry per missing field (value, externalId, details)')
  for (const field of ['value', 'externalId', 'details']) t.ok(body.message.some((m: string) => m.startsWith(field)), `names ${field}`)
  t.equal(new Set(body.message).size, body.message.length, 'no field twice')
})

t.test('the sandbox shape on a bad control-plane body', async t => {
  const app = await buildTestApp(t)
  const res = await app.inject({ method: 'POST', url: '/__sandbox/accounts', payload: { balance: 'abc', providerGroup: 'Z' } })
  const body = assertSandbox(t, res, 400)
  t.equal(body.code, 'HTTP_ERROR')
  t.equal(body.error, 'Bad Request')
  t.match(body.message, 'balance')
  t.match(body.message, 'providerGroup')
  const accounts = (await app.inject({ method: 'GET', url: '/__sandbox/accounts' })).json().accounts
  t.equal(accounts.length, 1, 'no account was created')
})

t.test('wrong content type: 415 in each family', async t => {
  const app = await buildTestApp(t)
  const token = await tokenFor(app)
  const text = { 'content-type': 'text/plain' }
  const simple = assertSimple(t, await tokenPost(app, text, 'clientId=x'), 415)
  t.equal(simple.error, 'Unsupported Media Type')
  assertSimple(t, await tokenPost(app, { 'content-type': 'application/x-www-form-urlencoded' }, `clientId=${fixtureAccount.clientId}&clientSecret=${fixtureAccount.clientSecret}`), 415)
  assertExtended(t, await app.inject({ method: 'POST', url: '/api/pix/cash-out', headers: { ...text, ...bearer(token) }, payload: '{}' }), 415, '/pix/cash-out', 'POST')
  assertSandbox(t, await app.inject({ method: 'POST', url: '/__sandbox/accounts', headers: text, payload: '{}' }), 415)
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/accounts' })).json().accounts.length, 1, 'nothing created')
})

t.test('a body over 1 MB: 413 in each family', async t => {
  const app = await buildTestApp(t)
  const token = await tokenFor(app)
  const big = JSON.stringify({ clientId: 'x'.repeat(1024 * 1024), clientSecret: 'pix-sandbox-secret-2026' })
  const json = { 'content-type': 'application/json' }
  const simple = assertSimple(t, await tokenPost(app, json, big), 413)
  t.equal(simple.error, 'Payload Too Large')
  assertExtended(t, await app.inject({ method: 'POST', url: '/api/pix/cash-out', headers: { ...json, ...bearer(token) }, payload: big }), 413, '/pix/cash-out', 'POST')
  assertSandbox(t, await app.inject({ method: 'POST', url: '/__sandbox/accounts', headers: json, payload: big }), 413)
  // Just under the limit is parsed (and then refused by validation, not by size).
  const under = JSON.stringify({ clientId: 'x'.repeat(1024 * 1024 - 100), clientSecret: 'pix-sandbox-secret-2026' })
  assertSimple(t, await tokenPost(app, json, under), 400)
})

t.test('unknown routes: 404 in each family', async t => {
  const app = await buildTestApp(t)
  const ext = assertExtended(t, await app.inject({ method: 'GET', url: '/api/x' }), 404, '/x', 'GET')
  t.equal(ext.error, 'Not Found')
  t.type(ext.message, 'string', 'not a validation error: one sentence')
  assertExtended(t, await app.inject({ method: 'DELETE', url: '/balance' }), 404, '/balance', 'DELETE')
  assertSimple(t, await app.inject({ method: 'GET', url: '/api/auth/token' }), 404) // the token route is of the simple family
  const simple = assertSimple(t, await app.inject({ method: 'GET', url: '/nope' }), 404)
  t.equal(simple.error, 'Not Found')
  assertSimple(t, await app.inject({ method: 'POST', url: '/accounts/balances' }), 404)
  assertSimple(t, await app.inject({ method: 'GET', url: '/apix' }), 404)
  const sb = assertSandbox(t, await app.inject({ method: 'GET', url: '/__sandbox/nope' }), 404)
  t.equal(sb.error, 'Not Found')
})

t.test('prototype poisoning is refused with a 400 and changes nothing', async t => {
  const app = await buildTestApp(t)
  const json = { 'content-type': 'application/json' }
  const proto = await app.inject({ method: 'POST', url: '/__sandbox/accounts', headers: json, payload: '{"__proto__": {"balance": 1}, "balance": 5}' })
  assertSandbox(t, proto, 400)
  const ctor = await app.inject({ method: 'POST', url: '/__sandbox/accounts', headers: json, payload: '{"constructor": {"prototype": {"x": 1}}}' })
  assertSandbox(t, ctor, 400)
  assertSimple(t, await tokenPost(app, json, `{"__proto__": {"admin": true}, "clientId": "${fixtureAccount.clientId}", "clientSecret": "${fixtureAccount.clientSecret}"}`), 400)
  const credit = await app.inject({ method: 'POST', url: '/__sandbox/accounts/1/balance', headers: json, payload: '{"__proto__": {"set": 1}, "credit": 1}' })
  assertSandbox(t, credit, 400)
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/accounts' })).json().accounts.length, 1, 'no account created')
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/accounts/1' })).json().balance.available, 10000, 'balance untouched')
  t.equal(({} as Record<string, unknown>).balance, undefined, 'Object.prototype is clean')
})

t.test('odd but well-formed bodies never give a 500', async t => {
  const app = await buildTestApp(t)
  const json = { 'content-type': 'application/json' }
  const bodies = ['[]', '"text"', '42', 'null', 'true', '{"clientId": {"$gt": ""}, "clientSecret": ["a"]}', '{"clientId": "' + '\\u0000'.repeat(10) + '", "clientSecret": "12345678"}', '['.repeat(5000) + ']'.repeat(5000)]
  for (const payload of bodies) {
    const res = await tokenPost(app, json, payload)
    t.ok(res.statusCode >= 400 && res.statusCode < 500, `${payload.slice(0, 30)} -> ${res.statusCode}`)
    assertSimple(t, res, res.statusCode)
  }
  for (const payload of bodies) {
    const res = await app.inject({ method: 'POST', url: '/__sandbox/accounts/1/balance', headers: json, payload })
    t.ok(res.statusCode >= 400 && res.statusCode < 500, `balance ${payload.slice(0, 30)} -> ${res.statusCode}`)
  }
  const huge = await app.inject({ method: 'POST', url: '/__sandbox/accounts/1/balance', headers: json, payload: '{"credit": 1e400}' })
  t.equal(huge.statusCode, 400, 'an infinite amount is a 400')
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/accounts/1' })).json().balance.available, 10000)
})

t.test('error responses carry x-request-id and x-sandbox-version too', async t => {
  const app = await buildTestApp(t)
  for (const url of ['/api/x', '/nope', '/__sandbox/nope', '/balance']) {
    const res = await app.inject({ method: 'GET', url })
    t.ok(res.statusCode >= 400)
    t.match(res.headers['x-request-id'], /\S+/, `${url} x-request-id`)
    t.equal(res.headers['x-sandbox-version'], app.sandbox.version, `${url} x-sandbox-version`)
  }
})
