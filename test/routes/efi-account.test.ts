import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { advance, bearer, buildTestApp, newAccount, NO_MTLS_CHECK } from '../helpers/app.js'
import { oauthToken } from '../helpers/api-pix.js'
import { receiveIncoming } from '../helpers/payins.js'

/**
 * Efí's routes over the account (docs/efi.md, Account and keys): GET /v2/gn/saldo (with bloqueios),
 * GET and PUT /v2/gn/config (its sent-PIX flags reaching the callback), random keys POST, GET and
 * DELETE /v2/gn/evp (the key directory and API Pix's webhooks follow), GET /v2/gn/chaves/balde.
 */

const DOC = '11222333000181'
const KEY = 'conta@example.com'
const HOOK = 'https://erp.example.com/efi'

async function account (app: FastifyInstance, settings: Record<string, unknown> = {}) {
  const acc = await newAccount(app, { document: DOC, balance: 100, fee: 0.25, ...NO_MTLS_CHECK, ...settings })
  const view = (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json()
  await app.inject({ method: 'PUT', url: `/__sandbox/directory/${KEY}`, payload: { name: 'CONTA', document: view.document, ispb: view.ispb, bankName: 'SANDBOX' } })
  const token = await oauthToken(app, acc)
  const call = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    app.inject({ method, url, headers: { ...bearer(token), ...headers }, ...(payload !== undefined ? { payload: payload as string } : {}) })
  return { acc, view, call }
}

t.test('GET /v2/gn/saldo: the available balance; bloqueios=true adds what open MED cases dispute', async t => {
  const app = await buildTestApp(t)
  const { acc, call } = await account(app)
  t.same((await call('GET', '/v2/gn/saldo')).json(), { saldo: '100.00' })
  const received = await receiveIncoming(app, acc.accountId, 30)
  t.same((await call('GET', '/v2/gn/saldo?bloqueios=true')).json(), { saldo: '130.00', bloqueios: { judicial: '0.00', med: '0.00', total: '0.00' } })
  const med = await app.inject({ method: 'POST', url: '/__sandbox/med', payload: { endToEndId: received.endToEndId, reason: 'REFUND_REQUEST' } })
  t.equal(med.statusCode, 201, med.body)
  t.same((await call('GET', '/v2/gn/saldo?bloqueios=true')).json(), { saldo: '130.00', bloqueios: { judicial: '0.00', med: '30.00', total: '30.00' } })
  t.same((await call('GET', '/v2/gn/saldo/?bloqueios=false')).json(), { saldo: '130.00' }, 'a trailing slash, as Efí\'s page writes it; false leaves them out')
})

t.test('GET and PUT /v2/gn/config: the default, a replacement, a key of another account refused, bad bodies in Efí\'s shape', async t => {
  const app = await buildTestApp(t)
  const { acc, call } = await account(app)
  t.same((await call('GET', '/v2/gn/config')).json(), { pix: { receberSemChave: true, chaves: {} } })
  const config = { pix: { receberSemChave: false, chaves: { [KEY]: { recebimento: { txidObrigatorio: true, qrCodeEstatico: { recusarTodos: false } }, envio: { webhook: { notificacao: { tarifa: true, favorecido: true } } } } } } }
  const put = await call('PUT', '/v2/gn/config', config)
  t.equal(put.statusCode, 204, put.body)
  t.equal(put.body, '')
  t.same((await call('GET', '/v2/gn/config')).json(), config)

  const foreign = await call('PUT', '/v2/gn/config', { pix: { receberSemChave: true, chaves: { 'outra@example.com': { recebimento: { txidObrigatorio: false } } } } })
  t.equal(foreign.statusCode, 400)
  t.match(foreign.json(), { nome: 'chave_invalida' })
  const bad = await call('PUT', '/v2/gn/config', { pix: { receberSemChave: 'sim' } })
  t.equal(bad.statusCode, 400)
  t.match(bad.json(), { nome: 'valor_invalido', mensagem: /receberSemChave/ })
  t.same((await call('GET', '/v2/gn/config')).json(), config, 'a refused PUT changes nothing')

  // The flags of the key a pay-out is sent from reach its callback.
  const token = await oauthToken(app, acc)
  await app.inject({ method: 'PUT', url: `/v2/webhook/${KEY}`, headers: bearer(token), payload: { webhookUrl: HOOK } })
  await app.inject({ method: 'PUT', url: '/__sandbox/directory/fav@example.com', payload: { name: 'FAV', document: '52998224725', ispb: '60701190', bankName: 'ITAU' } })
  const sent = await call('PUT', '/v3/gn/pix/cfg1', { valor: '1.00', pagador: { chave: KEY }, favorecido: { chave: 'fav@example.com' } })
  t.equal(sent.statusCode, 201, sent.body)
  await advance(app, 1000)
  const deliveries = (await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries?accountId=${acc.accountId}` })).json().deliveries.filter((d: { eventType: string }) => d.eventType === 'efi_pix_enviado')
  t.match(deliveries[0].body.pix[0].gnExtras, { idEnvio: 'cfg1', tarifa: '0.25', favorecido: { nome: 'FAV', cpf: '***.982.247-**', codigoBanco: '60701190' } })
})

t.test('random keys: POST (an empty form body too), GET lists only them, DELETE takes the key and its webhook away', async t => {
  const app = await buildTestApp(t)
  const { acc, call } = await account(app)
  // sdk-node-apis-efi: an empty application/x-www-form-urlencoded body.
  const created = await call('POST', '/v2/gn/evp', '', { 'content-type': 'application/x-www-form-urlencoded' })
  t.equal(created.statusCode, 201, created.body)
  const { chave } = created.json()
  t.match(chave, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  // gn-api-sdk-node: an empty JSON body.
  const second = await call('POST', '/v2/gn/evp', '', { 'content-type': 'application/json' })
  t.equal(second.statusCode, 201)
  t.same((await call('GET', '/v2/gn/evp')).json(), { chaves: [chave, second.json().chave] }, 'only the random keys, not the e-mail key')
  t.match((await app.inject({ method: 'GET', url: `/__sandbox/directory/${chave}` })).json(), { key: chave, keyType: 'EVP' }, 'in the key directory')
  t.equal((await call('POST', '/v2/gn/evp', 'a=b', { 'content-type': 'application/x-www-form-urlencoded' })).statusCode, 415, 'a form with content is not taken')

  const token = await oauthToken(app, acc)
  t.equal((await app.inject({ method: 'PUT', url: `/v2/webhook/${chave}`, headers: bearer(token), payload: { webhookUrl: HOOK } })).statusCode, 200, 'API Pix takes it as the account\'s key')
  const removed = await call('DELETE', `/v2/gn/evp/${chave}`)
  t.equal(removed.statusCode, 200)
  t.equal(removed.body, '')
  t.same((await call('GET', '/v2/gn/evp')).json(), { chaves: [second.json().chave] })
  t.equal((await app.inject({ method: 'GET', url: `/v2/webhook/${chave}`, headers: bearer(token) })).statusCode, 404, 'its webhook went with it')
  t.equal((await app.inject({ method: 'GET', url: `/__sandbox/directory/${chave}` })).statusCode, 404)

  for (const other of [chave, KEY, 'nada']) {
    const res = await call('DELETE', `/v2/gn/evp/${other}`)
    t.equal(res.statusCode, 400, other)
    t.same(res.json(), { nome: 'chave_nao_encontrada', mensagem: 'A chave informada não foi encontrada' })
  }
})

t.test('DICT\'s limit of keys: 5 for a CPF account (the e-mail key counts), then limite_criacao_chave_atingido', async t => {
  const app = await buildTestApp(t)
  const { call } = await account(app, { document: '52998224725' })
  for (let i = 0; i < 4; i++) t.equal((await call('POST', '/v2/gn/evp')).statusCode, 201)
  const over = await call('POST', '/v2/gn/evp')
  t.equal(over.statusCode, 400)
  t.same(over.json(), { nome: 'limite_criacao_chave_atingido', mensagem: 'O limite de criação de chaves foi atingido' })
  t.equal((await call('GET', '/v2/gn/evp')).json().chaves.length, 4)
})

t.test('the account\'s random keys follow the directory: a key moved to another holder, removed, put back, and a snapshot imported', async t => {
  const app = await buildTestApp(t)
  const { acc, view, call } = await account(app)
  const first = (await call('POST', '/v2/gn/evp')).json().chave
  const second = (await call('POST', '/v2/gn/evp')).json().chave
  const entry = (chave: string, document: string) => app.inject({ method: 'PUT', url: `/__sandbox/directory/${chave}`, payload: { name: 'X', document, ispb: view.ispb, bankName: 'SANDBOX', keyType: 'EVP' } })
  t.equal((await entry(first, '52998224725')).statusCode, 200, 'moved to another holder on the control plane')
  t.same((await call('GET', '/v2/gn/evp')).json(), { chaves: [second] })
  t.equal((await entry(first, view.document)).statusCode, 200, 'and back')
  t.same((await call('GET', '/v2/gn/evp')).json().chaves.sort(), [first, second].sort(), 'listed once')
  await app.inject({ method: 'DELETE', url: `/__sandbox/directory/${second}` })
  t.same((await call('GET', '/v2/gn/evp')).json(), { chaves: [first] })

  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  t.equal((await call('POST', '/v2/gn/evp')).statusCode, 201, 'a key made after the snapshot')
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })).statusCode, 200)
  const read = async () => (await app.inject({ method: 'GET', url: '/v2/gn/evp', headers: bearer(await oauthToken(app, acc)) })).json()
  t.same(await read(), { chaves: [first] }, 'the import\'s keys, the one made after it gone')
})

t.test('GET /v2/gn/chaves/balde, and each route\'s scope', async t => {
  const app = await buildTestApp(t)
  const { call } = await account(app)
  t.same((await call('GET', '/v2/gn/chaves/balde')).json(), {
    baldeA: { tiposChave: ['cpf', 'cnpj', 'evp'], capacidade: 100, fichasDisponiveis: 100, taxaDeReposicaoFichas: 2, periodoReposicaoEmSegundos: 60 },
    baldeB: { tiposChave: ['telefone', 'email'], capacidade: 100, fichasDisponiveis: 100, taxaDeReposicaoFichas: 2, periodoReposicaoEmSegundos: 60 },
  })
  const acc = await newAccount(app, {})
  const narrow = await oauthToken(app, acc, 'gn.balance.read')
  const as = (method: 'GET' | 'POST', url: string) => app.inject({ method, url, headers: bearer(narrow) })
  t.equal((await as('GET', '/v2/gn/saldo')).statusCode, 200)
  for (const [method, url] of [['GET', '/v2/gn/config'], ['POST', '/v2/gn/evp'], ['GET', '/v2/gn/evp'], ['GET', '/v2/gn/chaves/balde']] as const) {
    const res = await as(method, url)
    t.equal(res.statusCode, 403, url)
    t.same(res.json(), { error: 'insufficient_scope', error_description: 'Access token has insufficient scope' })
  }
})
