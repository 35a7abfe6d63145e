import t from 'tap'
import { balanceOf, bearer, buildTestApp, newAccount, tokenFor } from '../helpers/app.js'
import { advance, aTxid, cashInBody, createCashIn, payCode, receiveIncoming, recordEmits } from '../helpers/payins.js'

type App = Awaited<ReturnType<typeof buildTestApp>>
const put = (app: App, token: string, e2eid: string, id: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  app.inject({ method: 'PUT', url: `/pix/${e2eid}/devolucao/${id}`, headers: { ...bearer(token), ...headers }, payload })
const get = (app: App, token: string, e2eid: string, id: string) =>
  app.inject({ method: 'GET', url: `/pix/${e2eid}/devolucao/${id}`, headers: bearer(token) })

t.test('PUT devolução: 201 EM_PROCESSAMENTO, then DEVOLVIDO with horario.liquidacao and the REFUND webhook', async t => {
  const app = await buildTestApp(t)
  const events = recordEmits(app)
  const acc = await newAccount(app, { balance: 0 })
  const pix = await receiveIncoming(app, acc.accountId, 50)
  const res = await put(app, acc.token, pix.endToEndId, 'dev1', { valor: '20.00', descricao: 'Devolução parcial' })
  t.equal(res.statusCode, 201, res.body)
  const dev = res.json()
  t.same(Object.keys(dev).sort(), ['descricao', 'horario', 'id', 'natureza', 'rtrId', 'status', 'valor'])
  t.match(dev, { id: 'dev1', valor: '20.00', natureza: 'ORIGINAL', descricao: 'Devolução parcial', horario: { solicitacao: '2026-03-10T15:00:00.000Z' }, status: 'EM_PROCESSAMENTO' })
  t.match(dev.rtrId, /^D[A-Za-z0-9]{31}$/)
  t.same(await balanceOf(app, acc.accountId), { available: 30, blocked: 20, invariantHolds: true })
  await advance(app, 50)
  const after = (await get(app, acc.token, pix.endToEndId, 'dev1')).json()
  t.match(after, { status: 'DEVOLVIDO', horario: { solicitacao: '2026-03-10T15:00:00.000Z', liquidacao: '2026-03-10T15:00:00.050Z' } })
  t.same(await balanceOf(app, acc.accountId), { available: 30, blocked: 0, invariantHolds: true })
  t.match(events.filter(e => e.eventType === 'refund_in'), [{ payload: { type: 'REFUND', data: { txId: null, status: 'REFUNDED', endToEndId: pix.endToEndId, refunds: [{ endToEndId: dev.rtrId, payment: { amount: 20 }, information: 'Devolução parcial' }] } } }])
})

t.test('400/404/409 of spec 7.8 in the simple shape', async t => {
  const app = await buildTestApp(t)
  const a = await newAccount(app, { balance: 0 })
  const b = await newAccount(app, { balance: 0 })
  const pix = await receiveIncoming(app, a.accountId, 10)
  const cases: Array<[string, string, string, Record<string, unknown>, number]> = [
    ['e2eid of 31', pix.endToEndId.slice(1), 'x', { valor: '1.00' }, 400],
    ['id of 36', pix.endToEndId, 'a'.repeat(36), { valor: '1.00' }, 400],
    ['valor 1.0', pix.endToEndId, 'x', { valor: '1.0' }, 400],
    ['valor as a number', pix.endToEndId, 'x', { valor: 1 }, 400],
    ['natureza MED_FRAUDE in a request', pix.endToEndId, 'x', { valor: '1.00', natureza: 'MED_FRAUDE' }, 400],
    ['descricao of 141', pix.endToEndId, 'x', { valor: '1.00', descricao: 'd'.repeat(141) }, 400],
    ['over the original', pix.endToEndId, 'x', { valor: '10.01' }, 400],
    ['unknown e2eid', `E99999999${'0'.repeat(23)}`, 'x', { valor: '1.00' }, 404],
  ]
  for (const [name, e2eid, id, payload, status] of cases) {
    const res = await put(app, a.token, e2eid, id, payload)
    t.equal(res.statusCode, status, name)
    t.same(Object.keys(res.json()).sort(), ['error', 'message', 'statusCode'], `${name}: simple shape`)
  }
  t.equal((await put(app, b.token, pix.endToEndId, 'x', { valor: '1.00' })).statusCode, 404, "another account's PIX")
  t.equal((await put(app, a.token, pix.endToEndId, 'r1', { valor: '4.00', natureza: 'RETIRADA' })).json().natureza, 'RETIRADA')
  const dup = await put(app, a.token, pix.endToEndId, 'r1', { valor: '1.00' })
  t.equal(dup.statusCode, 409, 'an id already used for that e2eid')
  t.equal((await put(app, a.token, pix.endToEndId, 'r2', { valor: '6.01' })).statusCode, 400, 'over the remaining 6.00')
  t.equal((await put(app, a.token, pix.endToEndId, 'r2', { valor: '6.00' })).statusCode, 201, 'exactly the remaining')
  t.equal((await get(app, a.token, pix.endToEndId, 'nope')).statusCode, 404)
  t.equal((await put(app, a.token, pix.endToEndId, 'r3', { valor: '1.00' })).statusCode, 400, 'nothing left')
  await advance(app, 50)
  t.same(await balanceOf(app, a.accountId), { available: 0, blocked: 0, invariantHolds: true })
})

t.test('an outgoing payment is not a received PIX: 404', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 })
  const pix = await receiveIncoming(app, acc.accountId, 10)
  const dev = (await put(app, acc.token, pix.endToEndId, 'a1', { valor: '1.00' })).json()
  // The devolução's own id (rtrId, 32 characters) names an outgoing refund.
  t.equal((await put(app, acc.token, dev.rtrId, 'a2', { valor: '1.00' })).statusCode, 404)
})

t.test('the cob e2eid and the refund-in externalId share one id space and one remaining amount', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 })
  const cob = (await app.inject({ method: 'PUT', url: `/cob/${aTxid(1)}`, headers: bearer(acc.token), payload: { calendario: {}, valor: { original: '10.00' } } })).json()
  const paid = (await payCode(app, cob.location)).json()
  const viaStandard = await app.inject({ method: 'POST', url: `/api/pix/refund-in/${paid.transactionId}`, headers: bearer(acc.token), payload: { refundValue: 3, externalId: 'shared1' } })
  t.equal(viaStandard.statusCode, 201)
  t.match((await get(app, acc.token, paid.endToEndId, 'shared1')).json(), { id: 'shared1', valor: '3.00', status: 'EM_PROCESSAMENTO', rtrId: viaStandard.json().providerTransactionId })
  t.equal((await put(app, acc.token, paid.endToEndId, 'shared1', { valor: '1.00' })).statusCode, 409)
  t.equal((await put(app, acc.token, paid.endToEndId, 'other', { valor: '7.01' })).statusCode, 400)
  await advance(app, 50)
  const view = (await app.inject({ method: 'GET', url: `/cob/${aTxid(1)}`, headers: bearer(acc.token) })).json()
  t.match(view.pix[0].devolucoes, [{ id: 'shared1', valor: '3.00', status: 'DEVOLVIDO' }])

  const cashIn = await createCashIn(app, acc.token, cashInBody({ value: 5 }))
  const cashInPaid = (await payCode(app, cashIn.pixCode)).json()
  t.equal((await put(app, acc.token, cashInPaid.endToEndId, 'c1', { valor: '5.00' })).statusCode, 201, 'a paid cash-in is refundable by its e2eid')
})

t.test('422 after 89 days; 422 without available balance', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 })
  const pix = await receiveIncoming(app, acc.accountId, 10)
  await app.inject({ method: 'POST', url: `/__sandbox/accounts/${acc.accountId}/balance`, payload: { set: 2 } })
  const poor = await put(app, acc.token, pix.endToEndId, 'p1', { valor: '3.00' })
  t.equal(poor.statusCode, 422)
  await advance(app, 89 * 86_400_000 + 1)
  const token = await tokenFor(app, acc)
  const late = await put(app, token, pix.endToEndId, 'late', { valor: '1.00' })
  t.equal(late.statusCode, 422)
  t.match(late.json(), { statusCode: 422, message: /89 dias/ })
  t.same(await balanceOf(app, acc.accountId), { available: 2, blocked: 0, invariantHolds: true })
})

t.test('scenario REFUND_FAILED: NAO_REALIZADO with motivo, reservation released; REFUND_DELAY moves settlement', async t => {
  const app = await buildTestApp(t)
  const events = recordEmits(app)
  const acc = await newAccount(app, { balance: 0 })
  const pix = await receiveIncoming(app, acc.accountId, 10)
  const failed = await put(app, acc.token, pix.endToEndId, 'f1', { valor: '10.00' }, { 'x-sandbox-scenario': 'REFUND_FAILED' })
  t.equal(failed.statusCode, 201)
  const delayed = await put(app, acc.token, pix.endToEndId, 'd1', { valor: '1.00' }, { 'x-sandbox-scenario': 'REFUND_DELAY;ms=60000' })
  t.equal(delayed.statusCode, 400, 'the failed one still holds the whole amount until it fails')
  await advance(app, 50)
  const f1 = (await get(app, acc.token, pix.endToEndId, 'f1')).json()
  t.match(f1, { status: 'NAO_REALIZADO', motivo: /recusada/ })
  t.notOk('liquidacao' in f1.horario)
  t.same(await balanceOf(app, acc.accountId), { available: 10, blocked: 0, invariantHolds: true })
  t.match(events.filter(e => e.eventType === 'refund_in'), [{ payload: { data: { status: 'ERROR', errorCode: 'REFUND_FAILED' } } }])
  t.equal((await put(app, acc.token, pix.endToEndId, 'd1', { valor: '1.00' }, { 'x-sandbox-scenario': 'REFUND_DELAY;ms=60000' })).statusCode, 201)
  await advance(app, 59_999)
  t.equal((await get(app, acc.token, pix.endToEndId, 'd1')).json().status, 'EM_PROCESSAMENTO')
  await advance(app, 1)
  t.equal((await get(app, acc.token, pix.endToEndId, 'd1')).json().status, 'DEVOLVIDO')
  t.same(await balanceOf(app, acc.accountId), { available: 9, blocked: 0, invariantHolds: true })
})
