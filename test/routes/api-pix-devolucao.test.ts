import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { advance, aTxid, payCode, receiveIncoming } from '../helpers/payins.js'
import { balanceOf, bearer, buildTestApp, newAccount } from '../helpers/app.js'
import { checkAnswer, oauthToken, PROBLEM_TYPE } from '../helpers/api-pix.js'

/**
 * API Pix's devoluções under /v2 (docs/api-pix.md, devolução): PUT and GET
 * /pix/{e2eid}/devolucao/{id} over the refunds' records and ledger (at most what is left of the PIX,
 * within the available balance), EM_PROCESSAMENTO then DEVOLVIDO or NAO_REALIZADO, every answer
 * validated against BACEN's API Pix 2.9.0, errors as PixDevolucaoInvalida; scopes pix.write / pix.read.
 */

const WINDOW = 'inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z'
const DEVOLUCAO = '/pix/{e2eid}/devolucao/{id}'

function client (app: FastifyInstance, token: string) {
  return (method: 'GET' | 'PUT', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    app.inject({ method, url, headers: { ...bearer(token), ...headers }, ...(payload !== undefined ? { payload: payload as object } : {}) })
}

t.test('PUT: 201 EM_PROCESSAMENTO with the amount reserved, then DEVOLVIDO; GET and the PIX show it', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 })
  const call = client(app, await oauthToken(app, acc))
  const cob = (await call('PUT', `/v2/cob/${aTxid(1)}`, { calendario: {}, valor: { original: '50.00' }, chave: 'recebedor@example.com' })).json()
  const e2eid = (await payCode(app, cob.pixCopiaECola)).json().endToEndId as string

  const res = await call('PUT', `/v2/pix/${e2eid}/devolucao/dev1`, { valor: '20.00', natureza: 'ORIGINAL', descricao: 'Devolução parcial' })
  t.equal(res.statusCode, 201, res.body)
  checkAnswer(t, res, 'PUT', DEVOLUCAO)
  t.match(res.json(), { id: 'dev1', valor: '20.00', natureza: 'ORIGINAL', descricao: 'Devolução parcial', horario: { solicitacao: '2026-03-10T15:00:00.000Z' }, status: 'EM_PROCESSAMENTO' })
  t.match(res.json().rtrId, /^D[a-zA-Z0-9]{31}$/)
  t.same(await balanceOf(app, acc.accountId), { available: 30, blocked: 20, invariantHolds: true })
  const pending = await call('GET', `/v2/pix/${e2eid}/devolucao/dev1`)
  checkAnswer(t, pending, 'GET', DEVOLUCAO)
  t.same(pending.json(), res.json())

  await advance(app, 50)
  const done = await call('GET', `/v2/pix/${e2eid}/devolucao/dev1`)
  checkAnswer(t, done, 'GET', DEVOLUCAO)
  t.match(done.json(), { status: 'DEVOLVIDO', horario: { solicitacao: '2026-03-10T15:00:00.000Z', liquidacao: '2026-03-10T15:00:00.050Z' } })
  t.same(await balanceOf(app, acc.accountId), { available: 30, blocked: 0, invariantHolds: true })
  const pix = await call('GET', `/v2/pix/${e2eid}`)
  checkAnswer(t, pix, 'GET', '/pix/{e2eid}')
  t.same(pix.json().devolucoes, [done.json()])
  const listed = await call('GET', `/v2/pix?${WINDOW}&devolucaoPresente=true`)
  checkAnswer(t, listed, 'GET', '/pix')
  t.same(listed.json().pix.map((p: { endToEndId: string }) => p.endToEndId), [e2eid])
  const paidCob = await call('GET', `/v2/cob/${aTxid(1)}`)
  checkAnswer(t, paidCob, 'GET', '/cob/{txid}')
  t.same(paidCob.json().pix[0].devolucoes, [done.json()])
})

t.test('the refunds\' rules: what is left of the PIX, the available balance; NAO_REALIZADO releases the reservation', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 })
  const call = client(app, await oauthToken(app, acc))
  const { endToEndId: e2eid } = await receiveIncoming(app, acc.accountId, 10)
  const put = (id: string, body: Record<string, unknown>, headers?: Record<string, string>) => call('PUT', `/v2/pix/${e2eid}/devolucao/${id}`, body, headers)

  const failed = await put('f1', { valor: '10.00' }, { 'x-sandbox-scenario': 'REFUND_FAILED' })
  t.equal(failed.statusCode, 201)
  const held = await put('a1', { valor: '0.01' })
  t.equal(held.statusCode, 400, 'the pending one holds the whole PIX until it fails')
  t.equal(held.json().type, PROBLEM_TYPE + 'PixDevolucaoInvalida')
  checkAnswer(t, held, 'PUT', DEVOLUCAO)
  await advance(app, 50)
  const notDone = await call('GET', `/v2/pix/${e2eid}/devolucao/f1`)
  checkAnswer(t, notDone, 'GET', DEVOLUCAO)
  t.match(notDone.json(), { status: 'NAO_REALIZADO', motivo: /recusada/ })
  t.same(await balanceOf(app, acc.accountId), { available: 10, blocked: 0, invariantHolds: true })

  t.equal((await put('a1', { valor: '4.00' })).statusCode, 201)
  const over = await put('a2', { valor: '6.01' })
  t.equal(over.statusCode, 400, 'over the 6.00 left')
  t.match(over.json(), { type: PROBLEM_TYPE + 'PixDevolucaoInvalida', detail: /6\.00/ })
  checkAnswer(t, over, 'PUT', DEVOLUCAO)
  await app.inject({ method: 'POST', url: `/__sandbox/accounts/${acc.accountId}/balance`, payload: { set: 2 } })
  const poor = await put('a2', { valor: '3.00' })
  t.equal(poor.statusCode, 400, 'beyond the available balance')
  t.equal(poor.json().type, PROBLEM_TYPE + 'PixDevolucaoInvalida')
  checkAnswer(t, poor, 'PUT', DEVOLUCAO)
  t.same(await balanceOf(app, acc.accountId), { available: 2, blocked: 4, invariantHolds: true }, 'no refusal changed anything')
})

t.test('errors in problem details: PixDevolucaoInvalida, 404, and the scopes', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 })
  const call = client(app, await oauthToken(app, acc))
  const other = client(app, await oauthToken(app, await newAccount(app)))
  const { endToEndId: e2eid } = await receiveIncoming(app, acc.accountId, 10)
  t.equal((await call('PUT', `/v2/pix/${e2eid}/devolucao/used`, { valor: '1.00' })).statusCode, 201)
  const url = (id: string, e2e = e2eid) => `/v2/pix/${e2e}/devolucao/${id}`

  const errors: Array<[ReturnType<typeof call>, string, number, string]> = [
    [call('PUT', url('used'), { valor: '1.00' }), 'PUT', 400, 'PixDevolucaoInvalida'],
    [call('PUT', url('x1'), { valor: '1.0' }), 'PUT', 400, 'PixDevolucaoInvalida'],
    [call('PUT', url('x1'), { valor: 1 }), 'PUT', 400, 'PixDevolucaoInvalida'],
    [call('PUT', url('x1'), {}), 'PUT', 400, 'PixDevolucaoInvalida'],
    [call('PUT', url('x1'), { valor: '1.00', natureza: 'MED_FRAUDE' }), 'PUT', 400, 'PixDevolucaoInvalida'],
    [call('PUT', url('x1'), { valor: '1.00', natureza: 'RETIRADA' }), 'PUT', 400, 'PixDevolucaoInvalida'],
    [call('PUT', url('x1'), { valor: '1.00', descricao: 'd'.repeat(141) }), 'PUT', 400, 'PixDevolucaoInvalida'],
    [call('PUT', url('a'.repeat(36)), { valor: '1.00' }), 'PUT', 400, 'PixDevolucaoInvalida'],
    [call('PUT', url('x1', `E99999999${'0'.repeat(23)}`), { valor: '1.00' }), 'PUT', 404, 'NaoEncontrado'],
    [other('PUT', url('x1'), { valor: '1.00' }), 'PUT', 404, 'NaoEncontrado'],
    [call('GET', url('nope')), 'GET', 404, 'PixDevolucaoNaoEncontrada'],
    [other('GET', url('used')), 'GET', 404, 'PixDevolucaoNaoEncontrada'],
  ]
  for (const [pending, method, status, type] of errors) {
    const res = await pending
    t.equal(res.statusCode, status, `${method} ${res.body}`)
    t.equal(res.json().type, PROBLEM_TYPE + type, res.body)
    checkAnswer(t, res, method, DEVOLUCAO)
  }
  const badValor = await call('PUT', url('x2'), { valor: '1.0' })
  t.match(badValor.json().violacoes, [{ propriedade: 'devolucao.valor' }])

  const readOnly = client(app, await oauthToken(app, acc, 'pix.read'))
  const denied = await readOnly('PUT', url('x3'), { valor: '1.00' })
  t.equal(denied.statusCode, 403)
  t.equal(denied.json().type, PROBLEM_TYPE + 'AcessoNegado')
  checkAnswer(t, denied, 'PUT', DEVOLUCAO)
  t.equal((await readOnly('GET', url('used'))).statusCode, 200)
  const writeOnly = client(app, await oauthToken(app, acc, 'pix.write'))
  const cannotRead = await writeOnly('GET', url('used'))
  t.equal(cannotRead.statusCode, 403)
  checkAnswer(t, cannotRead, 'GET', DEVOLUCAO)

  // API Pix's 90 days of the PIX's settlement (the gateway's devolução stops at 89).
  await advance(app, 89 * 86_400_000 + 1)
  const fresh = client(app, await oauthToken(app, acc))
  t.equal((await fresh('PUT', url('day89'), { valor: '1.00' })).statusCode, 201, 'still refundable after 89 days')
  await advance(app, 86_400_000)
  const late = await client(app, await oauthToken(app, acc))('PUT', url('late'), { valor: '1.00' })
  t.equal(late.statusCode, 400)
  t.match(late.json(), { type: PROBLEM_TYPE + 'PixDevolucaoInvalida', detail: /90 dias/ })
  checkAnswer(t, late, 'PUT', DEVOLUCAO)
})
