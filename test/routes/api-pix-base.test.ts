import t from 'tap'
import { buildApp } from '../../server/app.js'
import { ConfigError } from '../../server/config.js'
import { buildTestApp, T0 } from '../helpers/app.js'

/**
 * API Pix's base path (docs/api-pix.md): /v2 by default, settable as PSPs mount it, refused where it
 * would take over a route of the sandbox; whatever is under it answers in API Pix's problem details.
 */

const PROBLEM = 'application/problem+json; charset=utf-8'

t.test('an unknown route under the base path is 404 NaoEncontrado in problem details, with or without a body', async t => {
  const app = await buildTestApp(t)
  for (const req of [
    { method: 'GET', url: '/v2/nada' },
    { method: 'GET', url: '/v2' },
    { method: 'POST', url: '/v2/nada', payload: { a: 1 } },
    { method: 'PUT', url: '/v2/cob/x/y', headers: { 'content-type': 'text/plain' }, payload: 'not json' },
    { method: 'DELETE', url: '/v2/nada?x=1' },
  ] as const) {
    const res = await app.inject(req)
    t.equal(res.statusCode, 404, `${req.method} ${req.url}`)
    t.equal(res.headers['content-type'], PROBLEM)
    t.same(Object.keys(res.json()).sort(), ['detail', 'status', 'title', 'type'])
    t.match(res.json(), { type: 'https://pix.bcb.gov.br/api/v2/error/NaoEncontrado', status: 404 })
  }
  // Outside the base path, the gateway's families answer as before.
  t.same(Object.keys((await app.inject({ method: 'GET', url: '/v3/nada' })).json()).sort(), ['error', 'message', 'statusCode'])
})

t.test('the base path is settable: /pix/v2 serves API Pix, even where a gateway route\'s parameter would match, and /v2 is then no longer it', async t => {
  const app = await buildTestApp(t, { apiPixBasePath: '/pix/v2' })
  const under = await app.inject({ method: 'GET', url: '/pix/v2/x/devolucao/y' })
  t.equal(under.statusCode, 404)
  t.equal(under.headers['content-type'], PROBLEM, 'API Pix\'s, not GET /pix/:e2eid/devolucao/:id')
  const old = await app.inject({ method: 'GET', url: '/v2/nada' })
  t.same(Object.keys(old.json()).sort(), ['error', 'message', 'statusCode'], '/v2 is the central-bank family\'s unknown route')
  // The gateway's own routes next to it still answer as they did.
  t.equal((await app.inject({ method: 'GET', url: '/pix?inicio=x&fim=y' })).statusCode, 401)
})

t.test('a base path that would take over a route of the sandbox is refused at start, naming the route', async t => {
  for (const base of ['/pix', '/api', '/__sandbox', '/cob', '/oauth', '/balance', '/docs']) {
    const err = await buildApp({ config: { apiPixBasePath: base, clock: 'frozen', clockStart: T0 } }).then(app => app.close(), (e: unknown) => e)
    t.ok(err instanceof ConfigError, base)
    t.match((err as Error).message, new RegExp(`"${base}" would take over the route [A-Z]+ ${base}(/|:)`), base)
    t.match((err as Error).message, /--api-pix-base-path/)
  }
})
