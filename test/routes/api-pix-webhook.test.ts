import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { aTxid, payCode, receiveIncoming } from '../helpers/payins.js'
import { bearer, buildTestApp, newAccount, NO_MTLS_CHECK, T0 } from '../helpers/app.js'
import { checkAnswer, oauthToken, PROBLEM_TYPE } from '../helpers/api-pix.js'

/**
 * API Pix's webhooks per key under /v2 (docs/api-pix.md, webhook): PUT, GET and DELETE
 * /webhook/{chave} and GET /webhook, on the keys the account holds, every answer (success or error)
 * validated against BACEN's API Pix 2.9.0; the callback of a PIX received on the key in the delivery
 * log (its delivery to a real receiver is test/flows/api-pix-webhook.test.ts); scopes webhook.*.
 */

const DOCUMENT = '11222333000181'
const KEY = 'loja@example.com'
const HOOK = 'https://erp.example.com/api/webhook'

function client (app: FastifyInstance, token: string) {
  return (method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    app.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) })
}

/** An account whose document is DOCUMENT and which holds KEY in the directory (same document, same institution). */
async function keyHolder (app: FastifyInstance) {
  const acc = await newAccount(app, { document: DOCUMENT, balance: 0, ...NO_MTLS_CHECK })
  const { ispb } = (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json()
  const put = await app.inject({ method: 'PUT', url: `/__sandbox/directory/${KEY}`, payload: { name: 'LOJA', document: DOCUMENT, ispb, bankName: 'SANDBOX' } })
  if (put.statusCode !== 201) throw new Error(put.body)
  return { acc, call: client(app, await oauthToken(app, acc)) }
}

async function pixDeliveries (app: FastifyInstance, accountId: number) {
  return (await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries?accountId=${accountId}&eventType=pix` })).json().deliveries as any[]
}

t.test('PUT, GET, GET /webhook and DELETE on the account\'s keys: its document and a key it holds', async t => {
  const app = await buildTestApp(t)
  const { acc, call } = await keyHolder(app)

  const put = await call('PUT', `/v2/webhook/${KEY}`, { webhookUrl: HOOK })
  t.equal(put.statusCode, 200, put.body)
  checkAnswer(t, put, 'PUT', '/webhook/{chave}')
  const byDocument = await call('PUT', `/v2/webhook/${DOCUMENT}`, { webhookUrl: `${HOOK}/doc` })
  t.equal(byDocument.statusCode, 200, byDocument.body)
  checkAnswer(t, byDocument, 'PUT', '/webhook/{chave}')

  const read = await call('GET', `/v2/webhook/${KEY}`)
  t.equal(read.statusCode, 200)
  checkAnswer(t, read, 'GET', '/webhook/{chave}')
  t.same(read.json(), { webhookUrl: HOOK, chave: KEY, criacao: T0 })
  t.same((await call('GET', `/v2/webhook/${KEY.toUpperCase()}`)).json(), read.json(), 'the key in its canonical form')

  // A new URL replaces the key's and keeps its criacao.
  await app.inject({ method: 'POST', url: '/__sandbox/clock/advance', payload: { ms: 60_000 } })
  const fresh = client(app, await oauthToken(app, acc))
  t.equal((await fresh('PUT', `/v2/webhook/${KEY}`, { webhookUrl: `${HOOK}/v2` })).statusCode, 200)
  t.same((await fresh('GET', `/v2/webhook/${KEY}`)).json(), { webhookUrl: `${HOOK}/v2`, chave: KEY, criacao: T0 })

  const list = await fresh('GET', '/v2/webhook')
  t.equal(list.statusCode, 200)
  checkAnswer(t, list, 'GET', '/webhook')
  t.same(list.json(), {
    parametros: { paginacao: { paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: 2 } },
    webhooks: [{ webhookUrl: `${HOOK}/v2`, chave: KEY, criacao: T0 }, { webhookUrl: `${HOOK}/doc`, chave: DOCUMENT, criacao: T0 }],
  })
  const windowed = await fresh('GET', '/v2/webhook?inicio=2026-03-11T00:00:00Z&fim=2026-03-12T00:00:00Z&paginacao.itensPorPagina=1')
  checkAnswer(t, windowed, 'GET', '/webhook')
  t.same(windowed.json(), { parametros: { inicio: '2026-03-11T00:00:00Z', fim: '2026-03-12T00:00:00Z', paginacao: { paginaAtual: 0, itensPorPagina: 1, quantidadeDePaginas: 1, quantidadeTotalDeItens: 0 } }, webhooks: [] })

  // A snapshot keeps them: exported, the sandbox reset, imported back.
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  t.equal(Object.keys(snapshot.apiPixWebhooks).length, 2)
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/reset' })).statusCode, 200)
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })).statusCode, 200)
  const restored = client(app, await oauthToken(app, acc))
  t.same((await restored('GET', '/v2/webhook')).json(), list.json())

  const removed = await restored('DELETE', `/v2/webhook/${KEY}`)
  t.equal(removed.statusCode, 204)
  checkAnswer(t, removed, 'DELETE', '/webhook/{chave}')
  const gone = await restored('GET', `/v2/webhook/${KEY}`)
  t.equal(gone.statusCode, 404)
  t.equal(gone.json().type, PROBLEM_TYPE + 'WebhookNaoEncontrado')
  checkAnswer(t, gone, 'GET', '/webhook/{chave}')
  t.equal((await restored('GET', '/v2/webhook')).json().webhooks.length, 1)
  // A reset of the account removes them with its other records.
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/reset', payload: { accountId: acc.accountId } })).statusCode, 200)
  t.same(Object.values(app.sandbox.store.data.apiPixWebhooks), [])
})

t.test('a PIX with a txid received on the key is posted to {webhookUrl}/pix as {"pix": [...]}; others are not', async t => {
  const app = await buildTestApp(t)
  const { acc, call } = await keyHolder(app)
  t.equal((await call('PUT', `/v2/webhook/${KEY}`, { webhookUrl: HOOK })).statusCode, 200)

  const onKey = (await call('PUT', `/v2/cob/${aTxid(1)}`, { calendario: {}, valor: { original: '7.50' }, chave: KEY })).json()
  const otherKey = (await call('PUT', `/v2/cob/${aTxid(2)}`, { calendario: {}, valor: { original: '1.00' }, chave: 'outra@example.com' })).json()
  const paid = (await payCode(app, onKey.pixCopiaECola)).json()
  t.equal((await payCode(app, otherKey.pixCopiaECola)).statusCode, 201)
  await receiveIncoming(app, acc.accountId, 3)

  const log = await pixDeliveries(app, acc.accountId)
  t.equal(log.length, 1, 'only the PIX with a txid on the key with a webhook')
  t.match(log[0], { eventType: 'pix', url: `${HOOK}/pix`, webhookId: null, transactionId: paid.transactionId })
  t.same(log[0].body, { pix: [(await call('GET', `/v2/pix/${paid.endToEndId}`)).json()] }, 'the PIX as GET /pix/{e2eid} shows it')

  // The key's webhook removed: nothing more is posted.
  t.equal((await call('DELETE', `/v2/webhook/${KEY}`)).statusCode, 204)
  const again = (await call('PUT', `/v2/cob/${aTxid(3)}`, { calendario: {}, valor: { original: '2.00' }, chave: KEY })).json()
  t.equal((await payCode(app, again.pixCopiaECola)).statusCode, 201)
  t.equal((await pixDeliveries(app, acc.accountId)).length, 1)
  t.equal((await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries?accountId=${acc.accountId}&eventType=cash_in` })).json().deliveries.length, 4,
    'the gateway\'s own events of the 4 PIX go on as before (no receiver)')
})

t.test('errors in problem details: a key the account does not hold, a bad URL, none configured, the scopes', async t => {
  const app = await buildTestApp(t)
  const { acc, call } = await keyHolder(app)
  const other = await newAccount(app)
  const otherCall = client(app, await oauthToken(app, other))
  t.equal((await call('PUT', `/v2/webhook/${KEY}`, { webhookUrl: HOOK })).statusCode, 200)

  const errors: Array<[ReturnType<typeof call>, string, string, number, string]> = [
    [otherCall('PUT', `/v2/webhook/${KEY}`, { webhookUrl: HOOK }), 'PUT', '/webhook/{chave}', 400, 'WebhookOperacaoInvalida'],
    [call('PUT', '/v2/webhook/not-a-key', { webhookUrl: HOOK }), 'PUT', '/webhook/{chave}', 400, 'WebhookOperacaoInvalida'],
    [call('PUT', '/v2/webhook/65162559202', { webhookUrl: HOOK }), 'PUT', '/webhook/{chave}', 400, 'WebhookOperacaoInvalida'],
    [call('PUT', `/v2/webhook/${KEY}`, { webhookUrl: 'ftp://erp.example.com/hook' }), 'PUT', '/webhook/{chave}', 400, 'WebhookOperacaoInvalida'],
    [call('PUT', `/v2/webhook/${KEY}`, { webhookUrl: 'not a url' }), 'PUT', '/webhook/{chave}', 400, 'WebhookOperacaoInvalida'],
    [call('PUT', `/v2/webhook/${KEY}`, {}), 'PUT', '/webhook/{chave}', 400, 'WebhookOperacaoInvalida'],
    [otherCall('GET', `/v2/webhook/${KEY}`), 'GET', '/webhook/{chave}', 404, 'WebhookNaoEncontrado'],
    [otherCall('DELETE', `/v2/webhook/${KEY}`), 'DELETE', '/webhook/{chave}', 404, 'WebhookNaoEncontrado'],
    [call('GET', '/v2/webhook?inicio=2026-03-11T00:00:00Z&fim=2026-03-10T00:00:00Z'), 'GET', '/webhook', 400, 'WebhookConsultaInvalida'],
    [call('GET', '/v2/webhook?inicio=ontem'), 'GET', '/webhook', 400, 'WebhookConsultaInvalida'],
  ]
  for (const [pending, method, path, status, type] of errors) {
    const res = await pending
    t.equal(res.statusCode, status, `${method} ${path}: ${res.body}`)
    t.equal(res.json().type, PROBLEM_TYPE + type, res.body)
    checkAnswer(t, res, method, path)
  }
  const badUrl = await call('PUT', `/v2/webhook/${KEY}`, { webhookUrl: 'ftp://erp.example.com/hook' })
  t.match(badUrl.json().violacoes, [{ propriedade: 'webhook.webhookUrl' }])
  t.same((await call('GET', `/v2/webhook/${KEY}`)).json().webhookUrl, HOOK, 'a refused PUT changed nothing')
  t.equal((await otherCall('GET', '/v2/webhook')).json().webhooks.length, 0, 'another account sees none of them')

  const readOnly = client(app, await oauthToken(app, acc, 'webhook.read'))
  for (const [method, url, path] of [['PUT', `/v2/webhook/${KEY}`, '/webhook/{chave}'], ['DELETE', `/v2/webhook/${KEY}`, '/webhook/{chave}']] as const) {
    const res = await readOnly(method, url, method === 'PUT' ? { webhookUrl: HOOK } : undefined)
    t.equal(res.statusCode, 403, `${method} with webhook.read`)
    checkAnswer(t, res, method, path)
  }
  t.equal((await readOnly('GET', `/v2/webhook/${KEY}`)).statusCode, 200)
  const writeOnly = client(app, await oauthToken(app, acc, 'webhook.write'))
  for (const [url, path] of [[`/v2/webhook/${KEY}`, '/webhook/{chave}'], ['/v2/webhook', '/webhook']]) {
    const res = await writeOnly('GET', url)
    t.equal(res.statusCode, 403, `GET ${url} with webhook.write`)
    t.equal(res.json().type, PROBLEM_TYPE + 'AcessoNegado')
    checkAnswer(t, res, 'GET', path)
  }
})

t.test('the control plane lists every account\'s webhooks without a token, newest first (GET /__sandbox/api-pix-webhooks)', async t => {
  const app = await buildTestApp(t)
  const one = await newAccount(app, { document: DOCUMENT, ...NO_MTLS_CHECK })
  const other = await newAccount(app, { document: '52998224725', ...NO_MTLS_CHECK })
  for (const [acc, chave] of [[one, DOCUMENT], [other, '52998224725']] as const) {
    const put = await app.inject({ method: 'PUT', url: `/v2/webhook/${chave}`, headers: bearer(await oauthToken(app, acc)), payload: { webhookUrl: HOOK } })
    t.equal(put.statusCode, 200, put.body)
  }
  const list = async (query = '') => (await app.inject({ method: 'GET', url: `/__sandbox/api-pix-webhooks${query}` })).json().webhooks
  t.same(await list(), [
    { webhookUrl: HOOK, chave: '52998224725', criacao: T0, accountId: other.accountId, callback: 'pix', callbackUrl: `${HOOK}/pix`, mtlsCheck: 'unchecked' },
    { webhookUrl: HOOK, chave: DOCUMENT, criacao: T0, accountId: one.accountId, callback: 'pix', callbackUrl: `${HOOK}/pix`, mtlsCheck: 'unchecked' },
  ])
  t.same((await list(`?accountId=${one.accountId}`)).map((w: { chave: string }) => w.chave), [DOCUMENT], 'one account\'s')
})
