import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { buildTestApp, certHeader, fixtureAccount } from '../helpers/app.js'
import { rawRequest, type RawAnswer } from '../helpers/raw-http.js'
import { shapeProblem, type ErrorFamily } from '../helpers/reliability.js'

/**
 * A request target in any form HTTP allows answers in the family of the route it reaches (docs/gateway.md
 * §7): the absolute form a proxy sends (`GET http://host/balance HTTP/1.1`), percent-encoded letters
 * (`/%62alance`), a query; and an unknown route in the family its path would belong to. Sent byte for
 * byte over a socket, since an HTTP client (and app.inject) would rewrite these targets.
 */

async function listening (t: Test, adminToken?: string): Promise<{ app: FastifyInstance, address: string }> {
  // A running clock, so that a freeze that got through would show.
  const app = await buildTestApp(t, adminToken ? { adminToken, clock: 'running' } : {})
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  return { app, address }
}

function send (address: string, method: string, target: string, opts: { headers?: Record<string, string>, body?: unknown } = {}): Promise<RawAnswer> {
  const json = opts.body === undefined ? {} : { body: JSON.stringify(opts.body), headers: { 'content-type': 'application/json', ...opts.headers } }
  return rawRequest(address, { method, target, headers: opts.headers, ...json })
}

function answers (t: Test, res: RawAnswer, status: number, family: ErrorFamily, what: string): any {
  t.equal(res.status, status, `${what}: ${status}`)
  t.equal(shapeProblem(family, status, res.body), null, `${what}: the ${family} shape`)
  return res.status === status ? res.json() : {}
}

t.test('GET /balance without a token is 401 in the extended shape, whatever form the target takes', async t => {
  const { address } = await listening(t)
  for (const target of ['/balance', 'http://x/balance', 'HTTP://x:8080/balance?y=1', 'https://x/balance', '/balance?x', '/%62alance', 'http://x/%62alance']) {
    const body = answers(t, await send(address, 'GET', target), 401, 'extended', target)
    t.equal(body.code, 'HTTP_ERROR', target)
    t.equal(body.message, 'Token de acesso ausente', target)
  }
  t.equal(answers(t, await send(address, 'GET', 'http://x/balance'), 401, 'extended', 'absolute form').path, '/balance', 'the path without scheme and host')
})

t.test('the other families keep their shapes in the absolute form: the token, the central-bank family, the control plane', async t => {
  const { address } = await listening(t)
  const cert = { 'x-ssl-client-cert': certHeader(fixtureAccount.certificate) }
  const wrong = answers(t, await send(address, 'POST', 'http://x/api/auth/token', { headers: cert, body: { clientId: fixtureAccount.clientId, clientSecret: 'not-the-secret' } }), 401, 'simple', 'a wrong secret')
  t.equal(wrong.message, 'Credenciais inválidas')
  t.equal((await send(address, 'POST', 'http://x/api/auth/token', { headers: cert, body: { clientId: fixtureAccount.clientId, clientSecret: fixtureAccount.clientSecret } })).status, 201, 'the right one')
  answers(t, await send(address, 'GET', 'http://x/accounts/balances'), 401, 'simple', 'central-bank balances without a token')
  const advance = answers(t, await send(address, 'POST', 'http://x/__sandbox/clock/advance', { body: { by: 'soon' } }), 400, 'sandbox', 'a control-plane validation error')
  t.equal(advance.code, 'HTTP_ERROR')
})

t.test('an unknown route answers 404 in the family its path names', async t => {
  const { address } = await listening(t)
  t.equal(answers(t, await send(address, 'GET', 'http://x/api/nowhere'), 404, 'extended', 'http://x/api/nowhere').path, '/nowhere')
  answers(t, await send(address, 'GET', '//balance'), 404, 'extended', '//balance')
  answers(t, await send(address, 'GET', '/%5f_sandbox/nowhere'), 404, 'sandbox', '/%5f_sandbox/nowhere')
  answers(t, await send(address, 'GET', 'http://x/cob-nowhere'), 404, 'simple', 'http://x/cob-nowhere')
})

t.test('with an admin token, the control plane refuses a request without it in every form of the target, and health stays open', async t => {
  const adminToken = 'an-admin-token-for-targets'
  const { app, address } = await listening(t, adminToken)
  for (const target of ['http://x/__sandbox/clock/freeze', '/%5f_sandbox/clock/freeze', '/__sandbox/clock/freeze?x', '/__sandbox/clock/%66reeze']) {
    t.equal(answers(t, await send(address, 'POST', target), 401, 'sandbox', target).code, 'ADMIN_TOKEN_REQUIRED', target)
  }
  answers(t, await send(address, 'POST', '//__sandbox/clock/freeze'), 404, 'sandbox', '//__sandbox/clock/freeze')
  t.equal(app.sandbox.clock.isFrozen(), false, 'the clock still runs')
  for (const target of ['http://x/__sandbox/health', '/__sandbox/%68ealth', '/__sandbox/health?x']) {
    const health = await send(address, 'GET', target)
    t.equal(health.status, 200, target)
    t.notOk('seed' in health.json(), 'the seed only for the admin')
  }
  const frozen = await send(address, 'POST', 'http://x/__sandbox/clock/freeze', { headers: { 'x-sandbox-admin-token': adminToken } })
  t.equal(frozen.status, 200, 'with the token')
  t.equal(frozen.json().frozen, true)
})

t.test('the request journal files an absolute-form request under its path', async t => {
  const { app, address } = await listening(t)
  await send(address, 'GET', 'http://x/balance')
  const count = await app.inject({ method: 'POST', url: '/__sandbox/requests/count', payload: { path: '/balance', status: 401 } })
  t.same(count.json(), { count: 1 })
})
