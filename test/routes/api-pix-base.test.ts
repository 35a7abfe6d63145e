import t from 'tap'
import { buildApp } from '../../server/app.js'
import { ConfigError } from '../../server/config.js'
import { bearer, buildTestApp, T0 } from '../helpers/app.js'
import { checkAnswer, oauthToken, PROBLEM_TYPE } from '../helpers/api-pix.js'
import { aTxid } from '../helpers/payins.js'

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

t.test('an API Pix path under another prefix is 404 in problem details naming the base path and --api-pix-base-path; other unknown routes keep their family\'s 404', async t => {
  const app = await buildTestApp(t)
  const headers = bearer(await oauthToken(app))
  for (const [method, url, meant] of [
    ['GET', '/v1/cob/abc', '/v2/cob/abc'],
    ['PUT', `/api/v2/cob/${aTxid(1)}`, `/v2/cob/${aTxid(1)}`],
    ['GET', '/pix/v2/cobv?inicio=x', '/v2/cobv'],
    ['POST', '/v3/loc', '/v2/loc'],
    ['GET', '/api/pix/v2/pix/E1234/devolucao/d1', '/v2/pix/E1234/devolucao/d1'],
    ['GET', '/cobv/abc', '/v2/cobv/abc'],
    ['PUT', '/webhookrec', '/v2/webhookrec'],
  ] as const) {
    const res = await app.inject({ method, url, headers, ...(method === 'PUT' ? { payload: {} } : {}) })
    t.equal(res.statusCode, 404, `${method} ${url}`)
    t.equal(res.headers['content-type'], PROBLEM)
    t.same(Object.keys(res.json()).sort(), ['detail', 'status', 'title', 'type'])
    t.match(res.json(), { type: `${PROBLEM_TYPE}NaoEncontrado`, status: 404 })
    t.equal(res.json().detail, `Rota ${method} ${url.split('?')[0]} não encontrada: a API Pix desta sandbox está sob o caminho base /v2, que --api-pix-base-path (SANDBOX_API_PIX_BASE_PATH) define; a operação seria ${method} ${meant}`)
  }
  const moved = await buildTestApp(t, { apiPixBasePath: '/api/pix/v2' })
  const v2 = await moved.inject({ method: 'GET', url: '/v2/cob/abc' })
  t.equal(v2.headers['content-type'], PROBLEM)
  t.match(v2.json().detail, 'sob o caminho base /api/pix/v2, que --api-pix-base-path (SANDBOX_API_PIX_BASE_PATH) define; a operação seria GET /api/pix/v2/cob/abc')

  // Anything else keeps its family's 404: the central-bank family's, the standard family's (a version
  // slipped into one of its routes), the control plane's; and a root route of the central-bank family.
  for (const [url, keys] of [
    ['/v1/nada', ['error', 'message', 'statusCode']],
    ['/cob/abc/x', ['error', 'message', 'statusCode']],
    ['/api/v1/pix/cash-out', ['code', 'error', 'errorId', 'message', 'method', 'path', 'statusCode', 'timestamp', 'userMessage']],
    ['/api/nada', ['code', 'error', 'errorId', 'message', 'method', 'path', 'statusCode', 'timestamp', 'userMessage']],
    ['/__sandbox/v2/cob', ['code', 'error', 'message', 'statusCode']],
  ] as const) {
    const res = await app.inject({ method: 'GET', url })
    t.equal(res.statusCode, 404, url)
    t.same(Object.keys(res.json()).sort(), keys, url)
    t.notMatch(res.body, 'api-pix-base-path', url)
  }
  t.equal((await app.inject({ method: 'DELETE', url: `/cob/${aTxid(2)}` })).headers['content-type'], 'application/json; charset=utf-8', 'the gateway has /cob: its own 404')
})

t.test('a trailing slash under the base path names the same operation, as PSPs serve it (Efí\'s SDKs list due charges at GET /v2/cobv/)', async t => {
  const app = await buildTestApp(t)
  const headers = bearer(await oauthToken(app))
  const body = { calendario: { expiracao: 3600 }, valor: { original: '10.00' }, chave: 'recebedor@example.com' }
  const created = await app.inject({ method: 'PUT', url: `/v2/cob/${aTxid(1)}/`, headers, payload: body })
  t.equal(created.statusCode, 201)
  checkAnswer(t, created, 'PUT', '/cob/{txid}')
  const window = 'inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z'
  const listed = await app.inject({ method: 'GET', url: `/v2/cob/?${window}`, headers })
  t.equal(listed.statusCode, 200)
  checkAnswer(t, listed, 'GET', '/cob')
  t.same(listed.json(), (await app.inject({ method: 'GET', url: `/v2/cob?${window}`, headers })).json())
  t.equal((await app.inject({ method: 'GET', url: `/v2/loc/${created.json().loc.id}/`, headers })).json().txid, aTxid(1))
  // One slash only (`/v2/cob//` reads a cob of an empty txid), and only under the base path: the
  // gateway's families answer as they did.
  t.not((await app.inject({ method: 'GET', url: `/v2/cob//?${window}`, headers })).statusCode, 200)
  t.equal((await app.inject({ method: 'GET', url: '/v2/', headers })).json().type, `${PROBLEM_TYPE}NaoEncontrado`)
  const gateway = await app.inject({ method: 'GET', url: '/balance/', headers })
  t.equal(gateway.statusCode, 404)
  t.same(Object.keys(gateway.json()).sort(), ['error', 'message', 'statusCode'])
})

t.test('an empty body named JSON is ignored by an operation that takes none (DELETE as gn-api-sdk-node sends it), refused by one that takes a body', async t => {
  const app = await buildTestApp(t)
  const token = await oauthToken(app)
  const loc = (await app.inject({ method: 'POST', url: '/v2/loc', headers: bearer(token), payload: { tipoCob: 'cob' } })).json()
  const headers = { ...bearer(token), 'content-type': 'application/json', 'content-length': '0' }
  const unbound = await app.inject({ method: 'DELETE', url: `/v2/loc/${loc.id}/txid`, headers })
  t.equal(unbound.statusCode, 200)
  checkAnswer(t, unbound, 'DELETE', '/loc/{id}/txid')
  t.same(unbound.json(), loc)
  const empty = await app.inject({ method: 'POST', url: '/v2/loc', headers })
  t.equal(empty.statusCode, 400)
  checkAnswer(t, empty, 'POST', '/loc')
  t.match(empty.json(), { type: `${PROBLEM_TYPE}PayloadLocationOperacaoInvalida`, detail: 'O corpo da requisição está vazio' })
  t.equal((await app.inject({ method: 'DELETE', url: `/v2/loc/${loc.id}/txid`, headers, payload: '{' })).statusCode, 400, 'a body that is there is still read as JSON')
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
