import t from 'tap'
import { hasError, parsePix } from 'pix-utils'
import type { FastifyInstance } from 'fastify'
import { advance, balanceOf, buildTestApp, newAccount } from '../helpers/app.js'

/** Mercado Pago's payments API for Pix (docs/mercado-pago.md): credentials, payments, paying, expiry, cancel, refunds. */

interface MpAccount { accountId: number, mercadoPago: { accessToken: string, publicKey: string, userId: number, webhookSecret: string } }

async function mpAccount (app: FastifyInstance, settings: Record<string, unknown> = {}): Promise<MpAccount> {
  return await newAccount(app, settings) as unknown as MpAccount
}

let keys = 0
const mp = (app: FastifyInstance, acc: MpAccount, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
  app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${acc.mercadoPago.accessToken}`, 'content-type': 'application/json', ...(method === 'POST' ? { 'x-idempotency-key': `key-${++keys}` } : {}), ...headers },
    ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
  })

const PIX = { transaction_amount: 150, payment_method_id: 'pix', description: 'Pedido 1234', external_reference: 'order-1234', payer: { email: 'comprador@example.com', identification: { type: 'CPF', number: '191.191.191-00' } }, metadata: { orderId: '1234', nested: { userID: 'x' } } }

t.test('credentials: each account has its own, shaped as Mercado Pago\'s test ones, settable at creation, shown by GET', async t => {
  const app = await buildTestApp(t)
  const a = await mpAccount(app)
  t.match(a.mercadoPago.accessToken, /^TEST-\d{16}-\d{6}-[0-9a-f]{32}-\d+$/)
  t.ok(a.mercadoPago.accessToken.endsWith(`-${a.mercadoPago.userId}`), 'the last segment is the user id')
  t.match(a.mercadoPago.publicKey, /^TEST-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  t.match(a.mercadoPago.webhookSecret, /^[0-9a-f]{64}$/)
  const given = { accessToken: 'TEST-1111222233334444-120708-0123456789abcdef0123456789abcdef-123456789', publicKey: 'TEST-pk-given', userId: 123456789, webhookSecret: 'a-secret-of-mine' }
  const b = await mpAccount(app, { mercadoPago: given })
  t.same(b.mercadoPago, { ...given, webhookUrl: null })
  const read = await app.inject({ method: 'GET', url: `/__sandbox/accounts/${b.accountId}` })
  t.same(read.json().mercadoPago, { ...given, webhookUrl: null })
  // An access token acts for one account only.
  const taken = await app.inject({ method: 'POST', url: '/__sandbox/accounts', payload: { mercadoPago: { accessToken: given.accessToken } } })
  t.equal(taken.statusCode, 400, taken.body)
  t.equal(app.sandbox.store.accounts().filter(x => x.mercadoPago?.accessToken === given.accessToken).length, 1)
})

t.test('401s as Mercado Pago answers them: no token (code 5), an unknown token (not_found, no cause)', async t => {
  const app = await buildTestApp(t)
  const none = await app.inject({ method: 'GET', url: '/v1/payments/search' })
  t.equal(none.statusCode, 401)
  t.same(none.json(), { message: 'Must provide your access_token to proceed', error: 'unauthorized', status: 401, cause: [{ code: 5, description: 'Must provide your access_token to proceed', data: null }] })
  const bad = await app.inject({ method: 'GET', url: '/v1/payments/search', headers: { authorization: 'Bearer TEST-nobody' } })
  t.equal(bad.statusCode, 401)
  t.same(bad.json(), { message: 'invalid access token', error: 'not_found', status: 401 })
})

t.test('POST /v1/payments: a pending Pix payment whose qr_code is a BR Code this sandbox pays, its PNG and its ticket page', async t => {
  const app = await buildTestApp(t)
  const acc = await mpAccount(app, { name: 'Loja Exemplo Ltda' })
  const res = await mp(app, acc, 'POST', '/v1/payments', PIX)
  t.equal(res.statusCode, 201, res.body)
  const p = res.json()
  t.match(p, { status: 'pending', status_detail: 'pending_waiting_transfer', payment_method_id: 'pix', payment_type_id: 'bank_transfer', transaction_amount: 150, transaction_amount_refunded: 0, currency_id: 'BRL', collector_id: acc.mercadoPago.userId, live_mode: false, description: 'Pedido 1234', external_reference: 'order-1234', date_approved: null, refunds: [] })
  t.same(p.metadata, { order_id: '1234', nested: { user_id: 'x' } }, 'metadata keys in snake_case')
  t.equal(p.payer.email, null, 'the payer\'s email is shown once approved')
  t.match(p.date_created, /^2026-03-10T11:00:00\.000-04:00$/)
  t.equal(p.date_of_expiration, '2026-03-11T11:00:00.000-04:00', '24 h by default')
  t.ok(Number.isSafeInteger(p.id) && String(p.id).length === 12)
  const data = p.point_of_interaction.transaction_data
  const read = parsePix(data.qr_code)
  t.notOk(hasError(read), JSON.stringify(read))
  t.match(read, { transactionAmount: 150, txid: `mpqrinter${p.id}` })
  const png = Buffer.from(data.qr_code_base64, 'base64')
  t.same([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG')
  const ticketUrl = new URL(data.ticket_url)
  const page = await app.inject({ method: 'GET', url: ticketUrl.pathname + ticketUrl.search })
  t.equal(page.statusCode, 200)
  t.match(page.headers['content-type'], /text\/html/)
  t.ok(page.body.includes(data.qr_code.replace(/&/g, '&#38;')), 'the page shows the code')
  const wrongHash = await app.inject({ method: 'GET', url: `${ticketUrl.pathname}?hash=nope` })
  t.equal(wrongHash.statusCode, 404)
  // GET answers the same payment.
  const got = await mp(app, acc, 'GET', `/v1/payments/${p.id}`)
  t.equal(got.statusCode, 200)
  t.same(got.json(), p)
})

t.test('validation in Mercado Pago\'s shape, nothing made; other methods refused', async t => {
  const app = await buildTestApp(t)
  const acc = await mpAccount(app)
  const cases: Array<[unknown, number]> = [
    [{ ...PIX, payment_method_id: 'visa' }, 3028],
    [{ ...PIX, payment_method_id: undefined }, 4001],
    [{ ...PIX, transaction_amount: undefined }, 4002],
    [{ ...PIX, transaction_amount: '10' }, 4003],
    [{ ...PIX, transaction_amount: -1 }, 2072],
    [{ ...PIX, transaction_amount: 1.001 }, 4037],
    [{ ...PIX, payer: 'x' }, 4006],
    [{ ...PIX, payer: { email: 'nope' } }, 4050],
    [{ ...PIX, payer: { email: 'a@b.co', identification: { type: 'CPF', number: '12345678900' } } }, 2067],
    [{ ...PIX, date_of_expiration: 'tomorrow' }, 23],
    [{ ...PIX, date_of_expiration: '2026-03-10T12:10:00.000-03:00' }, 7523],
    [{ ...PIX, date_of_expiration: '2026-05-10T12:00:00.000-03:00' }, 7523],
    [{ ...PIX, notification_url: 'ftp://x' }, 4020],
    [{ ...PIX, notification_url: `https://example.com/${'a'.repeat(250)}` }, 4021],
    [{ ...PIX, metadata: [1] }, 4022],
    [{ ...PIX, surprise: 1 }, 8],
  ]
  for (const [body, code] of cases) {
    const res = await mp(app, acc, 'POST', '/v1/payments', body)
    t.equal(res.statusCode, 400, `${code}: ${res.body}`)
    t.match(res.json(), { error: 'bad_request', status: 400, cause: [{ code }] })
  }
  const missingKey = await app.inject({ method: 'POST', url: '/v1/payments', headers: { authorization: `Bearer ${acc.mercadoPago.accessToken}` }, payload: PIX })
  t.equal(missingKey.statusCode, 400)
  t.same(missingKey.json(), { message: 'Header X-Idempotency-Key can’t be null', error: 'bad_request', status: 400, cause: [{ code: 4292, description: 'Header X-Idempotency-Key can’t be null', data: null }] })
  const notJson = await app.inject({ method: 'POST', url: '/v1/payments', headers: { authorization: `Bearer ${acc.mercadoPago.accessToken}`, 'x-idempotency-key': 'k', 'content-type': 'application/json' }, payload: '{' })
  t.equal(notJson.statusCode, 400)
  t.match(notJson.json(), { error: 'bad_request', status: 400 })
  t.equal(app.sandbox.store.transactionsOf(acc.accountId).length, 0, 'nothing made')
})

t.test('idempotency: the same key and body answer the same payment; another body is 409', async t => {
  const app = await buildTestApp(t)
  const acc = await mpAccount(app)
  const headers = { 'x-idempotency-key': 'same-key' }
  const first = await mp(app, acc, 'POST', '/v1/payments', PIX, headers)
  const again = await mp(app, acc, 'POST', '/v1/payments', PIX, headers)
  t.equal(again.statusCode, 201)
  t.same(again.json(), first.json())
  t.equal(app.sandbox.store.transactionsOf(acc.accountId).length, 1)
  const other = await mp(app, acc, 'POST', '/v1/payments', { ...PIX, transaction_amount: 2 }, headers)
  t.equal(other.statusCode, 409)
  t.match(other.json(), { error: 'idempotency_key_already_used', status: 409 })
  // Another account's key space is its own, and a token never reads another account's payment.
  const b = await mpAccount(app)
  const theirs = await mp(app, b, 'POST', '/v1/payments', PIX, headers)
  t.equal(theirs.statusCode, 201)
  t.not(theirs.json().id, first.json().id)
  const foreign = await mp(app, b, 'GET', `/v1/payments/${first.json().id}`)
  t.equal(foreign.statusCode, 404)
  t.match(foreign.json(), { message: 'Payment not found', error: 'not_found', status: 404, cause: [{ code: 2000 }] })
})

t.test('paying the qr_code (POST /__sandbox/pix/pay): approved/accredited, the account credited, the code paid once', async t => {
  const app = await buildTestApp(t)
  const acc = await mpAccount(app, { balance: 0 })
  const p = (await mp(app, acc, 'POST', '/v1/payments', PIX)).json()
  const code = p.point_of_interaction.transaction_data.qr_code
  const pay = await app.inject({ method: 'POST', url: '/__sandbox/pix/pay', payload: { pixCode: code } })
  t.equal(pay.statusCode, 201, pay.body)
  const got = (await mp(app, acc, 'GET', `/v1/payments/${p.id}`)).json()
  t.match(got, { status: 'approved', status_detail: 'accredited', payer: { email: 'comprador@example.com', identification: { type: 'CPF', number: '19119119100' } }, transaction_details: { net_received_amount: 150, total_paid_amount: 150 } })
  t.match(got.date_approved, /-04:00$/)
  t.match(got.point_of_interaction.transaction_data.transaction_id, /^PIXE/)
  t.match(await balanceOf(app, acc.accountId), { available: 150, invariantHolds: true })
  const twice = await app.inject({ method: 'POST', url: '/__sandbox/pix/pay', payload: { pixCode: code } })
  t.equal(twice.statusCode, 422)
  t.match(await balanceOf(app, acc.accountId), { available: 150 })
})

t.test('another account\'s cash-out by QR code pays it', async t => {
  const app = await buildTestApp(t)
  const acc = await mpAccount(app, { balance: 0 })
  const payer = await newAccount(app, { balance: 1000 })
  const p = (await mp(app, acc, 'POST', '/v1/payments', { ...PIX, transaction_amount: 10 })).json()
  const out = await app.inject({ method: 'POST', url: '/api/pix/cash-out-qrcode', headers: { authorization: `Bearer ${payer.token}` }, payload: { qrCode: p.point_of_interaction.transaction_data.qr_code, externalId: 'qr-1', value: 10 } })
  t.equal(out.statusCode, 201, out.body)
  await advance(app, 60_000)
  t.match((await mp(app, acc, 'GET', `/v1/payments/${p.id}`)).json(), { status: 'approved', status_detail: 'accredited' })
  t.match(await balanceOf(app, acc.accountId), { available: 10, invariantHolds: true })
})

t.test('expiry at date_of_expiration on the clock: cancelled/expired, no longer payable; PUT cancel: by_collector', async t => {
  const app = await buildTestApp(t)
  const acc = await mpAccount(app)
  const p = (await mp(app, acc, 'POST', '/v1/payments', { ...PIX, date_of_expiration: '2026-03-10T13:00:00.000-03:00' })).json()
  t.equal(p.date_of_expiration, '2026-03-10T12:00:00.000-04:00', 'normalised to -04:00')
  await advance(app, 59 * 60_000)
  t.equal((await mp(app, acc, 'GET', `/v1/payments/${p.id}`)).json().status, 'pending')
  await advance(app, 60_000)
  t.match((await mp(app, acc, 'GET', `/v1/payments/${p.id}`)).json(), { status: 'cancelled', status_detail: 'expired', date_of_expiration: '2026-03-10T12:00:00.000-04:00' })
  const late = await app.inject({ method: 'POST', url: '/__sandbox/pix/pay', payload: { pixCode: p.point_of_interaction.transaction_data.qr_code } })
  t.equal(late.statusCode, 422)

  const q = (await mp(app, acc, 'POST', '/v1/payments', PIX)).json()
  const cancel = await mp(app, acc, 'PUT', `/v1/payments/${q.id}`, { status: 'cancelled' })
  t.equal(cancel.statusCode, 200, cancel.body)
  t.match(cancel.json(), { status: 'cancelled', status_detail: 'by_collector' })
  const again = await mp(app, acc, 'PUT', `/v1/payments/${q.id}`, { status: 'cancelled' })
  t.equal(again.statusCode, 400)
  t.match(again.json(), { cause: [{ code: 2018 }] })
  const noStatus = await mp(app, acc, 'PUT', `/v1/payments/${q.id}`, {})
  t.match(noStatus.json(), { cause: [{ code: 4017 }] })
  const unpaid = await app.inject({ method: 'POST', url: '/__sandbox/pix/pay', payload: { pixCode: q.point_of_interaction.transaction_data.qr_code } })
  t.equal(unpaid.statusCode, 422)
})

t.test('PUT date_of_expiration moves a pending payment\'s expiry on the clock, earlier or later, within 30 minutes to 30 days from now; nothing notified', async t => {
  const app = await buildTestApp(t)
  const acc = await mpAccount(app)
  const withUrl = { ...PIX, notification_url: 'http://127.0.0.1:9/mp' }
  const deliveriesOf = () => Object.values(app.sandbox.store.data.deliveries).filter(d => d.accountId === acc.accountId).length
  // Later: a payment of 1 h moved to 48 h (T0 is 12:00 in São Paulo) is still payable after its first hour.
  const later = (await mp(app, acc, 'POST', '/v1/payments', { ...withUrl, date_of_expiration: '2026-03-10T13:00:00.000-03:00' })).json()
  const sent = deliveriesOf()
  const moved = await mp(app, acc, 'PUT', `/v1/payments/${later.id}`, { date_of_expiration: '2026-03-12T12:00:00.000-03:00' })
  t.equal(moved.statusCode, 200, moved.body)
  t.match(moved.json(), { status: 'pending', status_detail: 'pending_waiting_transfer', date_of_expiration: '2026-03-12T11:00:00.000-04:00' })
  t.equal((await mp(app, acc, 'GET', `/v1/payments/${later.id}`)).json().date_of_expiration, '2026-03-12T11:00:00.000-04:00')
  await advance(app, 2 * 60 * 60_000)
  t.equal((await mp(app, acc, 'GET', `/v1/payments/${later.id}`)).json().status, 'pending', 'not expired at its first date')
  // Earlier: a payment of 24 h moved to an hour from now expires then, and no longer pays.
  const earlier = (await mp(app, acc, 'POST', '/v1/payments', withUrl)).json()
  const created = deliveriesOf()
  const balance = await balanceOf(app, acc.accountId)
  t.equal((await mp(app, acc, 'PUT', `/v1/payments/${earlier.id}`, { date_of_expiration: '2026-03-10T15:00:00.000-03:00' })).statusCode, 200)
  t.equal(deliveriesOf(), created, 'moving the expiry notifies nothing')
  await advance(app, 59 * 60_000)
  t.equal((await mp(app, acc, 'GET', `/v1/payments/${earlier.id}`)).json().status, 'pending')
  await advance(app, 60_000)
  t.match((await mp(app, acc, 'GET', `/v1/payments/${earlier.id}`)).json(), { status: 'cancelled', status_detail: 'expired', date_of_expiration: '2026-03-10T14:00:00.000-04:00' })
  const late = await app.inject({ method: 'POST', url: '/__sandbox/pix/pay', payload: { pixCode: earlier.point_of_interaction.transaction_data.qr_code } })
  t.equal(late.statusCode, 422)
  t.same(await balanceOf(app, acc.accountId), balance, 'no money moved')
  // The one moved later still pays before its new date, and expires at it otherwise.
  await advance(app, 44 * 60 * 60_000)
  t.equal((await mp(app, acc, 'GET', `/v1/payments/${later.id}`)).json().status, 'pending')
  await advance(app, 60 * 60_000)
  t.match((await mp(app, acc, 'GET', `/v1/payments/${later.id}`)).json(), { status: 'cancelled', status_detail: 'expired' })
  t.ok(deliveriesOf() > sent, 'the expiry itself is notified')

  // Refused, changing nothing (now is 2026-03-12 12:00 in São Paulo): out of bounds from now (7523), not a date (23), a payment no longer pending (2018).
  const open = (await mp(app, acc, 'POST', '/v1/payments', PIX)).json()
  const before = (await mp(app, acc, 'GET', `/v1/payments/${open.id}`)).json()
  for (const [date, code] of [['2026-03-12T12:20:00.000-03:00', 7523], ['2026-04-12T12:00:00.000-03:00', 7523], ['tomorrow', 23], [12, 23]] as const) {
    const res = await mp(app, acc, 'PUT', `/v1/payments/${open.id}`, { date_of_expiration: date })
    t.equal(res.statusCode, 400, `${date}: ${res.body}`)
    t.match(res.json(), { error: 'bad_request', status: 400, cause: [{ code }] })
  }
  t.same((await mp(app, acc, 'GET', `/v1/payments/${open.id}`)).json(), before)
  const gone = await mp(app, acc, 'PUT', `/v1/payments/${earlier.id}`, { date_of_expiration: '2026-03-13T12:00:00.000-03:00' })
  t.equal(gone.statusCode, 400)
  t.match(gone.json(), { cause: [{ code: 2018 }] })
  t.equal((await mp(app, acc, 'GET', `/v1/payments/${earlier.id}`)).json().status, 'cancelled')
  // With a status, the status decides: a cancellation cancels.
  t.match((await mp(app, acc, 'PUT', `/v1/payments/${open.id}`, { status: 'cancelled', date_of_expiration: '2026-03-13T12:00:00.000-03:00' })).json(), { status: 'cancelled', status_detail: 'by_collector' })
})

t.test('an idempotency key lives 24 h of the clock from its first use: then it makes a new payment, and the store keeps it no longer', async t => {
  const app = await buildTestApp(t)
  const acc = await mpAccount(app)
  const headers = { 'x-idempotency-key': 'day-key' }
  const keyRef = `mp-idempotency:${acc.accountId}:day-key`
  const first = (await mp(app, acc, 'POST', '/v1/payments', PIX, headers)).json()
  await advance(app, 24 * 60 * 60_000 - 1000)
  const replay = await mp(app, acc, 'POST', '/v1/payments', PIX, headers)
  t.equal(replay.json().id, first.id, 'a second short of 24 h: the same payment')
  t.equal(app.sandbox.store.transactionByRef(keyRef)?.id, app.sandbox.store.transactionsOf(acc.accountId)[0].id)
  await advance(app, 1000)
  // The key is gone from the record and the index, the payment itself kept (expired unpaid, as its own 24 h ran out).
  t.equal(app.sandbox.store.transactionByRef(keyRef), undefined)
  const kept = app.sandbox.store.transactionsOf(acc.accountId)
  t.equal(kept.length, 1)
  t.notOk(kept[0].data.refs?.includes(keyRef), 'the record no longer names the key')
  t.equal(kept[0].data.refsExpiring, undefined)
  const fresh = await mp(app, acc, 'POST', '/v1/payments', { ...PIX, transaction_amount: 3 }, headers)
  t.equal(fresh.statusCode, 201, fresh.body)
  t.not(fresh.json().id, first.id, 'a new payment, not a 409: the key is free again')
  t.equal(fresh.json().transaction_amount, 3)
  t.equal(app.sandbox.store.transactionsOf(acc.accountId).length, 2)
  t.equal((await mp(app, acc, 'GET', `/v1/payments/${first.id}`)).json().status, 'cancelled')
})

t.test('a refund\'s idempotency key lives 24 h of the clock too: then the same key makes another refund', async t => {
  const app = await buildTestApp(t)
  const acc = await mpAccount(app)
  const p = (await mp(app, acc, 'POST', '/v1/payments', PIX)).json()
  await app.inject({ method: 'POST', url: '/__sandbox/pix/pay', payload: { pixCode: p.point_of_interaction.transaction_data.qr_code } })
  const paid = (await balanceOf(app, acc.accountId)).available
  const headers = { 'x-idempotency-key': 'refund-day' }
  const first = (await mp(app, acc, 'POST', `/v1/payments/${p.id}/refunds`, { amount: 10 }, headers)).json()
  await advance(app, 24 * 60 * 60_000 - 1000)
  t.same((await mp(app, acc, 'POST', `/v1/payments/${p.id}/refunds`, { amount: 10 }, headers)).json(), first, 'within 24 h: the same refund')
  await advance(app, 1000)
  t.notOk(Object.values(app.sandbox.store.data.transactions).some(tx => tx.data.refs?.some(ref => ref.endsWith(':refund-day'))), 'no record names the key any more')
  const second = await mp(app, acc, 'POST', `/v1/payments/${p.id}/refunds`, { amount: 20 }, headers)
  t.equal(second.statusCode, 201, second.body)
  t.not(second.json().id, first.id)
  t.equal(second.json().amount, 20)
  t.match((await mp(app, acc, 'GET', `/v1/payments/${p.id}`)).json(), { status_detail: 'partially_refunded', transaction_amount_refunded: 30 })
  t.match(await balanceOf(app, acc.accountId), { available: paid - 30, invariantHolds: true })
})

t.test('the same idempotency key while its first request is under way: 423 resource_locked, nothing made twice; then replayed', async t => {
  const app = await buildTestApp(t)
  const acc = await mpAccount(app)
  const body = { ...PIX, notification_url: 'http://127.0.0.1:9/mp' }
  const headers = { 'x-idempotency-key': 'held-key' }
  const payments = () => Object.values(app.sandbox.store.data.transactions).filter(tx => tx.accountId === acc.accountId && tx.kind === 'CASH_IN')
  const deliveries = () => Object.values(app.sandbox.store.data.deliveries).filter(d => d.accountId === acc.accountId)
  // The first answer is held (LATENCY, real time) once the payment is made: a retry meanwhile is locked out.
  const first = mp(app, acc, 'POST', '/v1/payments', body, { ...headers, 'x-sandbox-scenario': 'LATENCY;ms=1500' })
  const deadline = Date.now() + 10_000
  while (payments().length === 0 && Date.now() < deadline) await new Promise(resolve => setTimeout(resolve, 10))
  t.equal(payments().length, 1, 'the first request made its payment')
  for (const retry of [body, { ...body, transaction_amount: 99 }]) {
    const locked = await mp(app, acc, 'POST', '/v1/payments', retry, headers)
    t.equal(locked.statusCode, 423, locked.body)
    t.same(locked.json(), { message: 'resource locked', error: 'resource_locked', status: 423, cause: [] })
  }
  const answered = await first
  t.equal(answered.statusCode, 201, answered.body)
  t.equal(payments().length, 1, 'one payment')
  t.equal(deliveries().length, 1, 'one notification (payment.created)')
  // Once answered, the key replays the payment.
  const replay = await mp(app, acc, 'POST', '/v1/payments', body, headers)
  t.equal(replay.statusCode, 201)
  t.equal(replay.json().id, answered.json().id)
  t.equal(payments().length, 1)

  // A refund's key alike: one refund, the money moved once.
  await app.inject({ method: 'POST', url: '/__sandbox/pix/pay', payload: { pixCode: answered.json().point_of_interaction.transaction_data.qr_code } })
  const paidBalance = await balanceOf(app, acc.accountId)
  const refundHeaders = { 'x-idempotency-key': 'held-refund' }
  const refund = mp(app, acc, 'POST', `/v1/payments/${answered.json().id}/refunds`, { amount: 5 }, { ...refundHeaders, 'x-sandbox-scenario': 'LATENCY;ms=1500' })
  while (app.sandbox.refunds.refundsOf(payments()[0]).length === 0 && Date.now() < deadline + 10_000) await new Promise(resolve => setTimeout(resolve, 10))
  const lockedRefund = await mp(app, acc, 'POST', `/v1/payments/${answered.json().id}/refunds`, { amount: 5 }, refundHeaders)
  t.equal(lockedRefund.statusCode, 423, lockedRefund.body)
  t.equal((await refund).statusCode, 201)
  t.equal(app.sandbox.refunds.refundsOf(payments()[0]).length, 1, 'one refund')
  t.equal((await balanceOf(app, acc.accountId)).available, paidBalance.available - 5, 'debited once')
  t.equal((await mp(app, acc, 'POST', `/v1/payments/${answered.json().id}/refunds`, { amount: 5 }, refundHeaders)).statusCode, 201, 'then replayed')
  t.equal(app.sandbox.refunds.refundsOf(payments()[0]).length, 1)
})

t.test('refunds: partial then the rest (empty body with a JSON type), listed with and without the trailing slash, read one by one', async t => {
  const app = await buildTestApp(t)
  const acc = await mpAccount(app, { balance: 0 })
  const p = (await mp(app, acc, 'POST', '/v1/payments', PIX)).json()
  const pending = await mp(app, acc, 'POST', `/v1/payments/${p.id}/refunds`, { amount: 1 })
  t.equal(pending.statusCode, 400)
  t.match(pending.json(), { cause: [{ code: 2063 }] })
  await app.inject({ method: 'POST', url: '/__sandbox/pix/pay', payload: { pixCode: p.point_of_interaction.transaction_data.qr_code } })

  const tooMuch = await mp(app, acc, 'POST', `/v1/payments/${p.id}/refunds`, { amount: 151 })
  t.match(tooMuch.json(), { status: 400, cause: [{ code: 4042 }] })
  t.match((await mp(app, acc, 'POST', `/v1/payments/${p.id}/refunds`, { amount: 0 })).json(), { cause: [{ code: 4040 }] })
  t.match((await mp(app, acc, 'POST', `/v1/payments/${p.id}/refunds`, { amount: 'x' })).json(), { cause: [{ code: 4041 }] })

  const partial = await mp(app, acc, 'POST', `/v1/payments/${p.id}/refunds`, { amount: 50 }, { 'x-idempotency-key': 'refund-1' })
  t.equal(partial.statusCode, 201, partial.body)
  t.match(partial.json(), { payment_id: p.id, amount: 50, status: 'approved', source: { type: 'collector' } })
  const replay = await mp(app, acc, 'POST', `/v1/payments/${p.id}/refunds`, { amount: 50 }, { 'x-idempotency-key': 'refund-1' })
  t.same(replay.json(), partial.json(), 'the same key: the same refund')
  t.match(await balanceOf(app, acc.accountId), { available: 100, blocked: 0, invariantHolds: true })
  t.match((await mp(app, acc, 'GET', `/v1/payments/${p.id}`)).json(), { status: 'approved', status_detail: 'partially_refunded', transaction_amount_refunded: 50 })

  // The rest: a POST with a JSON content type and no body at all, as both SDKs send it.
  const rest = await app.inject({ method: 'POST', url: `/v1/payments/${p.id}/refunds`, headers: { authorization: `Bearer ${acc.mercadoPago.accessToken}`, 'content-type': 'application/json', 'x-idempotency-key': 'refund-2' } })
  t.equal(rest.statusCode, 201, rest.body)
  t.equal(rest.json().amount, 100)
  const done = (await mp(app, acc, 'GET', `/v1/payments/${p.id}`)).json()
  t.match(done, { status: 'refunded', status_detail: 'refunded', transaction_amount_refunded: 150 })
  t.equal(done.refunds.length, 2)
  t.match(await balanceOf(app, acc.accountId), { available: 0, invariantHolds: true })

  for (const url of [`/v1/payments/${p.id}/refunds`, `/v1/payments/${p.id}/refunds/`]) {
    const list = await mp(app, acc, 'GET', url)
    t.equal(list.statusCode, 200, url)
    t.same(list.json().map((r: { amount: number }) => r.amount), [50, 100])
  }
  const one = await mp(app, acc, 'GET', `/v1/payments/${p.id}/refunds/${partial.json().id}`)
  t.same(one.json(), partial.json())
  const none = await mp(app, acc, 'GET', `/v1/payments/${p.id}/refunds/1`)
  t.equal(none.statusCode, 404)
  t.match(none.json(), { cause: [{ code: 2032 }] })
})

t.test('a refund fails for lack of balance, as the ledger rules say: 4043, nothing moved', async t => {
  const app = await buildTestApp(t)
  const acc = await mpAccount(app, { balance: 0 })
  const p = (await mp(app, acc, 'POST', '/v1/payments', PIX)).json()
  await app.inject({ method: 'POST', url: '/__sandbox/pix/pay', payload: { pixCode: p.point_of_interaction.transaction_data.qr_code } })
  await app.inject({ method: 'POST', url: `/__sandbox/accounts/${acc.accountId}/balance`, payload: { set: 10 } })
  const res = await mp(app, acc, 'POST', `/v1/payments/${p.id}/refunds`, { amount: 20 })
  t.equal(res.statusCode, 400)
  t.same(res.json(), { message: 'Insufficient balance to refund', error: 'bad_request', status: 400, cause: [{ code: 4043, description: 'Insufficient balance to refund', data: null }] })
  t.match(await balanceOf(app, acc.accountId), { available: 10, blocked: 0, invariantHolds: true })
})

t.test('notifications: a payment without notification_url notifies the account\'s webhook URL', async t => {
  const app = await buildTestApp(t)
  const acc = await mpAccount(app)
  const set = await app.inject({ method: 'PUT', url: `/__sandbox/accounts/${acc.accountId}/mercado-pago/webhook`, payload: { url: 'http://127.0.0.1:9/mp?cliente=loja' } })
  t.equal(set.statusCode, 200, set.body)
  t.equal(set.json().mercadoPago.webhookUrl, 'http://127.0.0.1:9/mp?cliente=loja')
  const p = (await mp(app, acc, 'POST', '/v1/payments', { ...PIX, notification_url: undefined })).json()
  const deliveries = Object.values(app.sandbox.store.data.deliveries).filter(d => d.accountId === acc.accountId)
  t.equal(deliveries.length, 1)
  t.equal(deliveries[0].eventType, 'mercado_pago_payment')
  t.equal(deliveries[0].url, `http://127.0.0.1:9/mp?cliente=loja&data.id=${p.id}&type=payment`)
  t.match(deliveries[0].body, { action: 'payment.created', data: { id: String(p.id) }, type: 'payment', user_id: String(acc.mercadoPago.userId) })
  const removed = await app.inject({ method: 'PUT', url: `/__sandbox/accounts/${acc.accountId}/mercado-pago/webhook`, payload: { url: null } })
  t.equal(removed.json().mercadoPago.webhookUrl, null)
})

t.test('a body nested deeper than any payment needs is a 400 in Mercado Pago\'s shape, not a 500, and makes nothing', async t => {
  const app = await buildTestApp(t)
  const acc = await mpAccount(app)
  const before = app.sandbox.store.transactionsOf(acc.accountId).length
  const raw = (payload: string, url = '/v1/payments') => app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${acc.mercadoPago.accessToken}`, 'content-type': 'application/json', 'x-idempotency-key': `deep-${++keys}` }, payload })
  // As the fuzzer sent it: an array nested thousands deep (the idempotency digest and metadata's keys walk a body recursively).
  for (const payload of ['['.repeat(20000) + ']'.repeat(20000), JSON.stringify({ ...PIX, metadata: { deep: 'DEEP' } }).replace('"DEEP"', '['.repeat(5000) + ']'.repeat(5000))]) {
    const res = await raw(payload)
    t.equal(res.statusCode, 400, res.body.slice(0, 200))
    t.match(res.json(), { error: 'bad_request', status: 400, cause: [{ code: 1 }] })
  }
  const refund = await raw('['.repeat(20000) + ']'.repeat(20000), '/v1/payments/1/refunds')
  t.equal(refund.statusCode, 400)
  // What a payment needs nests far less deep, and is taken.
  t.equal((await mp(app, acc, 'POST', '/v1/payments', { ...PIX, metadata: { a: { b: { c: [[{ d: 1 }]] } } } })).statusCode, 201)
  t.equal(app.sandbox.store.transactionsOf(acc.accountId).length, before + 1, 'only the last one made a payment')
})
