import t from 'tap'
import { balanceOf, bearer, buildTestApp, newAccount } from '../helpers/app.js'
import { advance, cashInBody, createCashIn, payCode, receiveIncoming, recordEmits } from '../helpers/payins.js'

type App = Awaited<ReturnType<typeof buildTestApp>>
const openMed = (app: App, payload: Record<string, unknown>) => app.inject({ method: 'POST', url: '/__sandbox/med', payload })
const move = (app: App, id: number, payload: Record<string, unknown>) => app.inject({ method: 'POST', url: `/__sandbox/med/${id}/transition`, payload })
const list = (app: App, token: string, query = '', headers: Record<string, string> = {}) => app.inject({ method: 'GET', url: `/api/med${query}`, headers: { ...bearer(token), ...headers } })

t.test('MED lifecycle: open (med_created), RECEIVED, ANALYZED APPROVED debits the rest as MED_FRAUDE (med_accepted)', async t => {
  const app = await buildTestApp(t)
  const events = recordEmits(app)
  const acc = await newAccount(app, { balance: 0 })
  const charge = await createCashIn(app, acc.token, cashInBody({ value: 100 }))
  const paid = (await payCode(app, charge.pixCode, { payer: { name: 'VITIMA', document: '52998224725', ispb: '60701190' } })).json()
  await app.inject({ method: 'POST', url: `/api/pix/refund-in/${paid.transactionId}`, headers: bearer(acc.token), payload: { refundValue: 30 } })
  await advance(app, 50)

  const opened = await openMed(app, { endToEndId: paid.endToEndId, reason: 'REFUND_REQUEST', cause: 'SOCIAL_ENGINEERING', description: 'golpe' })
  t.equal(opened.statusCode, 201, opened.body)
  const med = opened.json()
  t.match(med, {
    accountId: acc.accountId,
    endToEnd: paid.endToEndId,
    status: 'OPEN',
    reason: 'REFUND_REQUEST',
    cause: 'SOCIAL_ENGINEERING',
    description: 'golpe',
    analysisResult: null,
    analysisDetails: null,
    requestingBank: { ispb: '60701190' },
    contestedBank: { ispb: '99999004', name: 'PIX SANDBOX IP S.A.' },
    originalTransaction: { amount: 100, type: 'PIX', transactionType: 'CASH_IN', name: 'VITIMA', document: '***.982.247-**', dateTime: '2026-03-10T15:00:00.000Z' },
    isReconciled: true,
    originalTransactionId: app.sandbox.store.transaction(paid.transactionId)!.seq,
  })
  t.match(events.at(-1), { eventType: 'med_created', payload: { type: 'MED', data: { id: med.id, status: 'OPEN' } } })
  t.equal((await openMed(app, { endToEndId: paid.endToEndId, reason: 'REFUND_REQUEST' })).statusCode, 409, 'one open MED per PIX')

  t.equal((await move(app, med.id, { status: 'ANALYZED', analysisResult: 'APPROVED' })).statusCode, 409, 'OPEN cannot jump to ANALYZED')
  t.equal((await move(app, med.id, { status: 'RECEIVED' })).json().status, 'RECEIVED')
  t.equal((await move(app, med.id, { status: 'ANALYZED' })).statusCode, 400, 'analysisResult is required')
  t.same(await balanceOf(app, acc.accountId), { available: 70, blocked: 0, invariantHolds: true })
  const approved = await move(app, med.id, { status: 'ANALYZED', analysisResult: 'APPROVED', analysisDetails: 'fraude comprovada' })
  t.equal(approved.statusCode, 200)
  t.match(approved.json(), { status: 'ANALYZED', analysisResult: 'APPROVED', analysisDetails: 'fraude comprovada', refund: { valor: '70.00', natureza: 'MED_FRAUDE', status: 'DEVOLVIDO', motivo: null } })
  t.same(await balanceOf(app, acc.accountId), { available: 0, blocked: 0, invariantHolds: true })
  t.match(events.at(-1), { eventType: 'med_accepted', transactionId: paid.transactionId, payload: { type: 'MED', data: { status: 'ANALYZED', analysisResult: 'APPROVED', refund: { valor: '70.00', natureza: 'MED_FRAUDE' } } } })
  t.equal((await move(app, med.id, { status: 'CANCELLED' })).statusCode, 409, 'ANALYZED is final')
  // The MED devolução counts against the original: nothing is left to refund.
  t.equal((await app.inject({ method: 'POST', url: `/api/pix/refund-in/${paid.transactionId}`, headers: bearer(acc.token), payload: { refundValue: 0.01 } })).statusCode, 400)
})

t.test('REJECTED emits med_rejected and moves no money; an operational cause is MED_OPERACIONAL; CANCELLED before analysis', async t => {
  const app = await buildTestApp(t)
  const events = recordEmits(app)
  const acc = await newAccount(app, { balance: 0 })
  const p1 = await receiveIncoming(app, acc.accountId, 10)
  const p2 = await receiveIncoming(app, acc.accountId, 20)
  const p3 = await receiveIncoming(app, acc.accountId, 30)
  const m1 = (await openMed(app, { endToEndId: p1.endToEndId, reason: 'REFUND_REQUEST', cause: 'UNAUTHORIZED_TRANSACTION' })).json()
  await move(app, m1.id, { status: 'RECEIVED' })
  const rejected = await move(app, m1.id, { status: 'ANALYZED', analysisResult: 'REJECTED' })
  t.match(rejected.json(), { analysisResult: 'REJECTED', refund: null })
  t.equal(events.at(-1)!.eventType, 'med_rejected')
  t.same(await balanceOf(app, acc.accountId), { available: 60, blocked: 0, invariantHolds: true })

  const m2 = (await openMed(app, { endToEndId: p2.endToEndId, reason: 'REFUND_REQUEST', cause: 'PRODUCT_NOT_DELIVERED' })).json()
  await move(app, m2.id, { status: 'RECEIVED' })
  t.match((await move(app, m2.id, { status: 'ANALYZED', analysisResult: 'APPROVED' })).json().refund, { natureza: 'MED_OPERACIONAL', valor: '20.00' })
  t.same(await balanceOf(app, acc.accountId), { available: 40, blocked: 0, invariantHolds: true })

  const m3 = (await openMed(app, { endToEndId: p3.endToEndId, reason: 'REFUND_REQUEST' })).json()
  t.equal((await move(app, m3.id, { status: 'CANCELLED' })).json().status, 'CANCELLED')
  t.equal((await move(app, m3.id, { status: 'RECEIVED' })).statusCode, 409)
  t.same(events.map(e => e.eventType), ['cash_in', 'cash_in', 'cash_in', 'med_created', 'med_rejected', 'med_created', 'med_accepted', 'med_created'])
})

t.test('an approval without balance leaves the devolução NAO_REALIZADO; 404 for an unknown PIX or MED', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 })
  const p = await receiveIncoming(app, acc.accountId, 10)
  await app.inject({ method: 'POST', url: `/__sandbox/accounts/${acc.accountId}/balance`, payload: { set: 0 } })
  const m = (await openMed(app, { endToEndId: p.endToEndId, reason: 'REFUND_REQUEST' })).json()
  await move(app, m.id, { status: 'RECEIVED' })
  t.match((await move(app, m.id, { status: 'ANALYZED', analysisResult: 'APPROVED' })).json().refund, { status: 'NAO_REALIZADO', motivo: /insuficiente/ })
  t.same(await balanceOf(app, acc.accountId), { available: 0, blocked: 0, invariantHolds: true })
  t.equal((await openMed(app, { endToEndId: `E99999999${'0'.repeat(23)}`, reason: 'REFUND_REQUEST' })).statusCode, 404)
  t.equal((await move(app, 999, { status: 'RECEIVED' })).statusCode, 404)
  t.equal((await openMed(app, { endToEndId: p.endToEndId, reason: 'OTHER' })).statusCode, 400)
})

t.test('GET /api/med: filters, paging and metadata; only the account\'s own', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 })
  const other = await newAccount(app, { balance: 0 })
  const ids: number[] = []
  for (let i = 0; i < 5; i++) {
    const p = await receiveIncoming(app, acc.accountId, 1 + i)
    ids.push((await openMed(app, { endToEndId: p.endToEndId, reason: 'REFUND_REQUEST' })).json().id)
    await advance(app, 86_400_000) // one a day
  }
  await move(app, ids[0], { status: 'RECEIVED' })
  const o = await receiveIncoming(app, other.accountId, 1)
  await openMed(app, { endToEndId: o.endToEndId, reason: 'REFUND_REQUEST' })
  const { tokenFor } = await import('../helpers/app.js')
  const token = await tokenFor(app, acc)

  const all = await list(app, token)
  t.equal(all.statusCode, 200)
  t.same(all.json().metadata, { total: 5, page: 1, pageSize: 20, totalPages: 1 })
  t.same(all.json().data.map((m: { id: number }) => m.id), [...ids].reverse(), 'newest first')
  t.notOk('accountId' in all.json().data[0], 'the public record is the one of spec 2.10')
  const page2 = (await list(app, token, '?page=2&pageSize=2')).json()
  t.same(page2.metadata, { total: 5, page: 2, pageSize: 2, totalPages: 3 })
  t.same(page2.data.map((m: { id: number }) => m.id), [ids[2], ids[1]])
  t.same((await list(app, token, '?status=RECEIVED')).json().data.map((m: { id: number }) => m.id), [ids[0]])
  t.equal((await list(app, token, '?isReconciled=false')).json().metadata.total, 0)
  t.equal((await list(app, token, '?isReconciled=true')).json().metadata.total, 5)
  // MEDs were opened at 12:00 in São Paulo on March 10, 11, 12, 13 and 14.
  t.same((await list(app, token, '?startDate=2026-03-11&endDate=2026-03-12')).json().data.map((m: { id: number }) => m.id), [ids[2], ids[1]])
  t.same((await list(app, token, '?startDate=2026-03-13T15:00:00Z')).json().data.map((m: { id: number }) => m.id), [ids[4], ids[3]])
  for (const q of ['?status=DONE', '?page=0', '?pageSize=0', '?pageSize=101', '?startDate=yesterday', '?endDate=2026-13-01', '?isReconciled=maybe']) {
    const res = await list(app, token, q)
    t.equal(res.statusCode, 400, q)
    t.equal(res.json().path, '/med', `${q}: extended shape`)
  }
  t.equal((await app.inject({ method: 'GET', url: '/api/med' })).statusCode, 401)
  t.equal((await app.inject({ method: 'GET', url: `/__sandbox/med?accountId=${acc.accountId}` })).json().meds.length, 5)
})

t.test('GET /api/med is rate limited per account by the sandbox clock: 429 with Retry-After', async t => {
  const app = await buildTestApp(t, { medRateLimit: 3 })
  const a = await newAccount(app)
  const b = await newAccount(app)
  for (let i = 0; i < 3; i++) t.equal((await list(app, a.token)).statusCode, 200)
  const limited = await list(app, a.token)
  t.equal(limited.statusCode, 429)
  t.match(limited.json(), { statusCode: 429, code: 'RATE_LIMITED', path: '/med' })
  t.equal(limited.headers['retry-after'], '60')
  t.equal((await list(app, b.token)).statusCode, 200, 'another account has its own budget')
  await advance(app, 59_999)
  t.equal((await list(app, a.token)).statusCode, 429)
  await advance(app, 1)
  t.equal((await list(app, a.token)).statusCode, 200)
})

t.test('scenarios RATE_LIMITED (429) and INTERNAL_ERROR (500) on the MED list', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const limited = await list(app, acc.token, '', { 'x-sandbox-scenario': 'RATE_LIMITED' })
  t.equal(limited.statusCode, 429)
  t.equal(limited.headers['x-sandbox-scenario-applied'], 'RATE_LIMITED')
  const broken = await list(app, acc.token, '', { 'x-sandbox-scenario': 'INTERNAL_ERROR' })
  t.equal(broken.statusCode, 500)
  t.match(broken.json(), { statusCode: 500, code: 'HTTP_ERROR', error: 'Internal Server Error', path: '/med' })
  t.equal((await list(app, acc.token)).statusCode, 200)
})
