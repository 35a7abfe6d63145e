import t from 'tap'
import { parseBrCode } from '../../server/domain/brcode.js'
import { balanceOf, bearer, buildTestApp, newAccount, T0 } from '../helpers/app.js'
import { advance, cashInBody, createCashIn, payCode, PAYER, recordEmits } from '../helpers/payins.js'

const post = (app: Awaited<ReturnType<typeof buildTestApp>>, token: string, payload: unknown, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: '/api/pix/cash-in', headers: { ...bearer(token), ...headers }, payload: payload as object })

t.test('201: a PENDING charge whose pixCode is a dynamic BR Code as BACEN\'s: no amount, `***` in 62-05 and a valid CRC', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { name: 'Padaria São João' })
  const res = await post(app, acc.token, cashInBody({ value: 0.29, externalId: 'pedido-1', expirationTime: 3600 }))
  t.equal(res.statusCode, 201, res.body)
  const body = res.json()
  t.match(body, { externalId: 'pedido-1', status: 'PENDING', generateTime: T0, expirationDate: '2026-03-10T16:00:00.000Z' })
  t.match(body.correlationId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  t.notOk('qrCodeImage' in body)
  const code = parseBrCode(body.pixCode)
  t.ok(code.ok, 'parses, CRC included')
  if (!code.ok) return
  t.equal(code.value.amountCents, undefined, 'no tag 54: the charge has the amount (docs/assumptions.md, Charges)')
  t.equal(code.value.location, `pix.sandbox.local/qr/v2/${body.transactionId}`)
  // Tag 62-05 is `***` as in BCB's dynamic codes: the payload at the location names the charge.
  t.equal(code.value.txid, undefined)
  t.match(body.pixCode, /62070503\*\*\*6304[0-9A-F]{4}$/)
  t.equal(code.value.merchantName, 'PADARIA SAO JOAO')
  t.equal(code.value.merchantCity, 'SAO PAULO')
  t.ok(code.value.singleUse)
  t.equal(app.sandbox.store.transaction(body.transactionId)?.status, 'PENDING')
  // A tampered code fails the CRC.
  t.notOk(parseBrCode(body.pixCode.replace('PADARIA', 'PADARIO')).ok)
})

t.test('400 for each rule of spec 2.6, and nothing is created', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const cases: Array<[string, unknown, string]> = [
    ['value 0', cashInBody({ value: 0 }), 'HTTP_ERROR'],
    ['value with 3 decimals', cashInBody({ value: 1.005 }), 'PIX_INVALID_AMOUNT'],
    ['empty description', cashInBody({ description: '' }), 'HTTP_ERROR'],
    ['description of 141', cashInBody({ description: 'x'.repeat(141) }), 'HTTP_ERROR'],
    ['empty externalId', cashInBody({ externalId: '' }), 'HTTP_ERROR'],
    ['expiration 29', cashInBody({ expirationTime: 29 }), 'HTTP_ERROR'],
    ['expiration 604801', cashInBody({ expirationTime: 604801 }), 'HTTP_ERROR'],
    ['payer name of 101', { ...cashInBody(), payer: { ...PAYER, fullName: 'x'.repeat(101) } }, 'HTTP_ERROR'],
    ['payer document with a wrong check digit', { ...cashInBody(), payer: { ...PAYER, document: '52998224724' } }, 'HTTP_ERROR'],
    ['11 additionalInfo keys', { ...cashInBody(), additionalInfo: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, 'v'])) }, 'HTTP_ERROR'],
    ['additionalInfo value not a string', { ...cashInBody(), additionalInfo: { a: 1 } }, 'HTTP_ERROR'],
  ]
  for (const [name, payload, code] of cases) {
    const res = await post(app, acc.token, payload)
    t.equal(res.statusCode, 400, name)
    t.equal(res.json().code, code, name)
    t.equal(res.json().path, '/pix/cash-in', name)
  }
  t.equal(app.sandbox.store.transactionsOf(acc.accountId).length, 0)
})

t.test('splits: at most 10, key valid for its type, valid document, sum not above the amount', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const split = { pixKey: 'parceiro@example.com', pixKeyType: 'EMAIL', name: 'PARCEIRO', document: '11222333000181', type: 'FIXED', value: 10 }
  const bad = async (splits: unknown[], code: string, name: string) => {
    const res = await post(app, acc.token, cashInBody({ value: 100, splits }))
    t.equal(res.statusCode, 400, name)
    t.equal(res.json().code, code, name)
    return res.json()
  }
  await bad(Array(11).fill(split), 'HTTP_ERROR', '11 splits')
  const wrongKey = await bad([{ ...split, pixKeyType: 'CPF' }], 'HTTP_ERROR', 'e-mail key typed CPF')
  t.match(wrongKey.message, [/splits\[0\]\.pixKey/])
  await bad([{ ...split, document: '123' }], 'HTTP_ERROR', 'bad document')
  await bad([{ ...split, type: 'OTHER' }], 'HTTP_ERROR', 'bad type')
  await bad([{ ...split, value: 0.001 }], 'HTTP_ERROR', 'value under 0.01')
  await bad([{ ...split, value: 10.005 }], 'HTTP_ERROR', 'FIXED with 3 decimals')
  const over = await bad([{ ...split, value: 60 }, { ...split, type: 'PERCENTAGE', value: 40.01 }], 'PIX_SPLIT_AMOUNT_EXCEEDED', '60 + 40.01% of 100')
  t.same(over.details, { splitsTotal: 100.01, value: 100 })
  const ok = await post(app, acc.token, cashInBody({ value: 100, splits: [{ ...split, value: 60 }, { ...split, type: 'PERCENTAGE', value: 40 }] }))
  t.equal(ok.statusCode, 201, 'exactly the amount is allowed')
  // 60% + 40.01% of 10.00 rounds to 6.00 + 4.00, which fits the amount; the percentages do not.
  const percent = { ...split, type: 'PERCENTAGE' }
  for (const value of [10, 1, 100]) {
    const res = await post(app, acc.token, cashInBody({ value, splits: [{ ...percent, value: 60 }, { ...percent, value: 40.01 }] }))
    t.equal(res.statusCode, 400, `PERCENTAGE 60 + 40.01 on ${value}`)
    t.match(res.json(), { errorCode: 'PIX_SPLIT_AMOUNT_EXCEEDED', message: /100\.01%/, details: { percentageTotal: 100.01 } })
  }
  const whole = await post(app, acc.token, cashInBody({ value: 10, splits: [{ ...percent, value: 60 }, { ...percent, value: 40 }, { ...split, value: 0.01, type: 'FIXED' }] }))
  t.equal(whole.statusCode, 400, '100% plus a fixed cent is above the amount')
  t.equal((await post(app, acc.token, cashInBody({ value: 10, splits: [{ ...percent, value: 60 }, { ...percent, value: 40 }] }))).statusCode, 201, 'exactly 100% is allowed')
})

t.test('externalId is unique per account: 400 PIX_DUPLICATE_EXTERNAL_ID with the existing id; other accounts may reuse it', async t => {
  const app = await buildTestApp(t)
  const a = await newAccount(app)
  const b = await newAccount(app)
  const first = await createCashIn(app, a.token, cashInBody({ externalId: 'same' }))
  const again = await post(app, a.token, cashInBody({ externalId: 'same' }))
  t.equal(again.statusCode, 400)
  t.equal(again.json().errorCode, 'PIX_DUPLICATE_EXTERNAL_ID')
  t.same(again.json().details, { externalId: 'same', existingTransactionId: app.sandbox.store.transaction(first.transactionId)!.seq })
  t.equal((await post(app, b.token, cashInBody({ externalId: 'same' }))).statusCode, 201)
  // Concurrent duplicates create exactly one charge.
  const burst = await Promise.all(Array.from({ length: 5 }, () => post(app, a.token, cashInBody({ externalId: 'burst' }))))
  t.same(burst.map(r => r.statusCode).sort(), [201, 400, 400, 400, 400])
})

t.test('401 without a token', async t => {
  const app = await buildTestApp(t)
  const res = await app.inject({ method: 'POST', url: '/api/pix/cash-in', payload: cashInBody() })
  t.equal(res.statusCode, 401)
})

t.test('the provider minimum expiration of the account: 400 PROVIDER_EXPIRATION_BELOW_MINIMUM', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { cashInMinExpirationSeconds: 600 })
  const low = await post(app, acc.token, cashInBody({ expirationTime: 599 }))
  t.equal(low.statusCode, 400)
  t.equal(low.json().errorCode, 'PROVIDER_EXPIRATION_BELOW_MINIMUM')
  t.equal((await post(app, acc.token, cashInBody({ expirationTime: 600 }))).statusCode, 201)
})

t.test('scenario PROVIDER_EXPIRATION_BELOW_MINIMUM refuses any expiration; nothing created, nothing emitted', async t => {
  const app = await buildTestApp(t)
  const events = recordEmits(app)
  const acc = await newAccount(app)
  const res = await post(app, acc.token, cashInBody({ expirationTime: 604800 }), { 'x-sandbox-scenario': 'PROVIDER_EXPIRATION_BELOW_MINIMUM' })
  t.equal(res.statusCode, 400)
  t.equal(res.json().errorCode, 'PROVIDER_EXPIRATION_BELOW_MINIMUM')
  t.equal(res.headers['x-sandbox-scenario-applied'], 'PROVIDER_EXPIRATION_BELOW_MINIMUM')
  t.equal(app.sandbox.store.transactionsOf(acc.accountId).length, 0)
  t.same(events, [])
})

t.test('scenario PROVIDER_UNAVAILABLE: 500 extended shape, retryable, nothing created; the retry succeeds', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const body = cashInBody({ externalId: 'retry-me' })
  const res = await post(app, acc.token, body, { 'x-sandbox-scenario': 'PROVIDER_UNAVAILABLE' })
  t.equal(res.statusCode, 500)
  t.match(res.json(), { statusCode: 500, code: 'PROVIDER_UNAVAILABLE', errorCode: 'PROVIDER_UNAVAILABLE', path: '/pix/cash-in', method: 'POST', details: { retryable: true } })
  t.equal(app.sandbox.store.transactionsOf(acc.accountId).length, 0)
  t.equal((await post(app, acc.token, body)).statusCode, 201, 'same externalId is free for the retry')
  t.same(await balanceOf(app, acc.accountId), { available: 10000, blocked: 0, invariantHolds: true })
})

t.test('an unknown scenario is a 400 listing the valid ones', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const res = await post(app, acc.token, cashInBody(), { 'x-sandbox-scenario': 'NOPE' })
  t.equal(res.statusCode, 400)
  t.match(res.json().details.validScenarios, ['PROVIDER_UNAVAILABLE', 'PROVIDER_EXPIRATION_BELOW_MINIMUM', 'AUTO_PAY', 'PAYMENT_ERROR'])
})

t.test('scenario AUTO_PAY;ms=N: a simulated payer pays after N ms of sandbox time', async t => {
  const app = await buildTestApp(t)
  const events = recordEmits(app)
  const acc = await newAccount(app, { balance: 0 })
  const charge = await createCashIn(app, acc.token, cashInBody({ value: 25 }), { 'x-sandbox-scenario': 'AUTO_PAY;ms=5000' })
  await advance(app, 4999)
  t.equal(app.sandbox.store.transaction(charge.transactionId)!.status, 'PENDING')
  t.same(events, [])
  await advance(app, 1)
  const tx = app.sandbox.store.transaction(charge.transactionId)!
  t.equal(tx.status, 'CONFIRMED')
  t.same(await balanceOf(app, acc.accountId), { available: 25, blocked: 0, invariantHolds: true })
  t.equal(events.length, 1)
  t.match(events[0], { eventType: 'cash_in', transactionId: charge.transactionId, payload: { type: 'RECEIVE', data: { status: 'LIQUIDATED', payment: { amount: '25.00', currency: 'BRL' }, endToEndId: tx.endToEndId, debtorAccount: { name: 'PAGADOR SANDBOX', document: '***.982.247-**' } } } })
})

t.test('scenario PAYMENT_ERROR: paying ends the charge ERROR, no credit, webhook with errorCode and errorMessage', async t => {
  const app = await buildTestApp(t)
  const events = recordEmits(app)
  const acc = await newAccount(app, { balance: 0 })
  const charge = await createCashIn(app, acc.token, cashInBody({ value: 80 }), { 'x-sandbox-scenario': 'PAYMENT_ERROR' })
  const res = await payCode(app, charge.pixCode)
  t.equal(res.statusCode, 201)
  t.match(res.json(), { status: 'ERROR', errorCode: 'PAYMENT_ERROR' })
  const tx = app.sandbox.store.transaction(charge.transactionId)!
  t.equal(tx.status, 'ERROR')
  t.same(await balanceOf(app, acc.accountId), { available: 0, blocked: 0, invariantHolds: true })
  t.equal(events.length, 1)
  t.match(events[0].payload, { type: 'RECEIVE', data: { status: 'ERROR', errorCode: 'PAYMENT_ERROR', errorMessage: /provedor/ } })
  t.equal((await payCode(app, charge.pixCode)).json().code, 'QRCODE_NOT_AVAILABLE', 'not payable afterwards')
  const refund = await app.inject({ method: 'POST', url: `/api/pix/refund-in/${charge.transactionId}`, headers: bearer(acc.token), payload: { refundValue: 1 } })
  t.equal(refund.statusCode, 400, 'nothing was received, so nothing to refund')
})

t.test('an unpaid cash-in expires by the sandbox clock: ERROR with errorCode EXPIRED, no longer payable', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 })
  const charge = await createCashIn(app, acc.token, cashInBody({ expirationTime: 60 }))
  await advance(app, 59_999)
  t.equal(app.sandbox.store.transaction(charge.transactionId)!.status, 'PENDING')
  await advance(app, 1)
  const tx = app.sandbox.store.transaction(charge.transactionId)!
  t.match(tx, { status: 'ERROR', errorCode: 'EXPIRED' })
  const res = await payCode(app, charge.pixCode)
  t.equal(res.statusCode, 422)
  t.equal(res.json().code, 'QRCODE_NOT_AVAILABLE')
  t.same(await balanceOf(app, acc.accountId), { available: 0, blocked: 0, invariantHolds: true })
})

t.test('expiry survives a snapshot export and import (rescheduled on load)', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const charge = await createCashIn(app, acc.token, cashInBody({ expirationTime: 60 }))
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })).statusCode, 200)
  await advance(app, 60_000)
  t.equal(app.sandbox.store.transaction(charge.transactionId)!.status, 'ERROR')
})
