import t from 'tap'
import { parseBrCode } from '../../server/domain/brcode.js'
import { balanceOf, buildTestApp, newAccount } from '../helpers/app.js'
import { advance, cashInBody, createCashIn, payCode, recordEmits } from '../helpers/payins.js'

t.test('paying a cash-in by its code credits the account, confirms the charge and emits RECEIVE', async t => {
  const app = await buildTestApp(t)
  const events = recordEmits(app)
  const acc = await newAccount(app, { balance: 0 })
  const charge = await createCashIn(app, acc.token, cashInBody({ value: 150.25, externalId: 'order-1' }))
  t.equal(charge.status, 'PENDING')
  const code = parseBrCode(charge.pixCode)
  t.ok(code.ok)

  const res = await payCode(app, charge.pixCode, { payer: { name: 'JOAO PAGADOR', document: '52998224725', ispb: '18236120' } })
  t.equal(res.statusCode, 201, res.body)
  const paid = res.json()
  t.equal(paid.transactionId, charge.transactionId)
  t.equal(paid.status, 'CONFIRMED')
  t.equal(paid.amount, 150.25)
  t.match(paid.endToEndId, /^E18236120202603101500[0-9A-Za-z]{11}$/)

  t.same(await balanceOf(app, acc.accountId), { available: 150.25, blocked: 0, invariantHolds: true })
  t.equal(events.length, 1)
  t.same(events[0], {
    accountId: acc.accountId,
    eventType: 'cash_in',
    transactionId: charge.transactionId,
    payload: {
      type: 'RECEIVE',
      data: {
        id: events[0].payload && (events[0].payload as { data: { id: number } }).data.id,
        // The code carries `***` in 62-05 (as BCB's dynamic codes); the charge keeps its txid for the webhook.
        txId: (app.sandbox.store.transaction(charge.transactionId)?.data as { txid: string }).txid,
        status: 'LIQUIDATED',
        payment: { amount: '150.25', currency: 'BRL' },
        endToEndId: paid.endToEndId,
        debtorAccount: { name: 'JOAO PAGADOR', document: '***.982.247-**' },
        errorCode: null,
        errorMessage: null,
      },
    },
    scenarios: [],
  })
  t.type((events[0].payload as { data: { id: unknown } }).data.id, 'number')

  const again = await payCode(app, charge.pixCode)
  t.equal(again.statusCode, 422)
  t.equal(again.json().code, 'QRCODE_ALREADY_PAID')
  t.same(await balanceOf(app, acc.accountId), { available: 150.25, blocked: 0, invariantHolds: true })
})

t.test('400 for an unparsable code or a wrong amount, 404 for a code not issued here; nothing moves', async t => {
  const app = await buildTestApp(t)
  const events = recordEmits(app)
  const acc = await newAccount(app, { balance: 0 })
  const charge = await createCashIn(app, acc.token, cashInBody({ value: 10 }))
  const garbage = await payCode(app, '000201nonsense')
  t.equal(garbage.statusCode, 400)
  t.equal(garbage.json().code, 'INVALID_PIX_CODE')
  // The control plane speaks English, the reason of the BR Code's refusal included (docs/assumptions.md).
  t.equal(garbage.json().message, 'Invalid pixCode: BR Code: invalid id "no" at position 6')
  // The same code refused by the gateway, in its Portuguese.
  const gateway = await app.inject({ method: 'POST', url: '/api/pix/cash-out-qrcode', headers: { authorization: `Bearer ${acc.token}` }, payload: { value: 10, qrCode: `000201nonsense${'x'.repeat(40)}`, externalId: 'qr-lang' } })
  t.same(gateway.json().message, ['qrCode inválido: BR Code: identificador inválido "no" na posição 6'])
  // And the control plane's directory, whose refusals were Portuguese.
  const key = await app.inject({ method: 'PUT', url: '/__sandbox/directory/not-a-key', payload: { name: 'X', document: '52998224725', ispb: '12345678', bankName: 'B' } })
  t.match(key.json(), { statusCode: 400, code: 'INVALID_PIX_KEY', message: 'Key "not-a-key" does not have the form of any key type of the directory (CPF, CNPJ, EMAIL, PHONE +55..., EVP)' })
  const document = await app.inject({ method: 'PUT', url: '/__sandbox/directory/fulano@example.com', payload: { name: 'X', document: '52998224724', ispb: '12345678', bankName: 'B' } })
  t.match(document.json(), { statusCode: 400, code: 'INVALID_DOCUMENT', message: 'document must be a valid CPF or CNPJ' })
  const wrong = await payCode(app, charge.pixCode, { amount: 9.99 })
  t.equal(wrong.statusCode, 400)
  t.equal(wrong.json().code, 'PIX_AMOUNT_MISMATCH')
  // BACEN's dynamic example: a valid code, but no charge of this sandbox behind it.
  const foreign = await payCode(app, '00020101021226770014BR.GOV.BCB.PIX2555pix.example.com/qr/93598be0-1bd0-4997-8318-81776a1d8a995204000053039865802BR5907EMPRESA6009SAO PAULO62070503***6304EEAB')
  t.equal(foreign.statusCode, 404)
  t.equal(foreign.json().code, 'CHARGE_NOT_FOUND')
  t.same(await balanceOf(app, acc.accountId), { available: 0, blocked: 0, invariantHolds: true })
  t.same(events, [])
  t.equal((await payCode(app, charge.pixCode, { amount: 10 })).statusCode, 201, 'the exact amount pays')
})

t.test('an unsolicited PIX credits the account and emits RECEIVE with txId null', async t => {
  const app = await buildTestApp(t)
  const events = recordEmits(app)
  const acc = await newAccount(app, { balance: 5 })
  const res = await app.inject({ method: 'POST', url: '/__sandbox/pix/incoming', payload: { accountId: acc.accountId, amount: 12.34, payer: { name: 'ANA', document: '11222333000181', ispb: '60701190' } } })
  t.equal(res.statusCode, 201)
  t.match(res.json(), { kind: 'PIX_IN', status: 'CONFIRMED', amount: 12.34, txid: null, accountId: acc.accountId })
  t.match(res.json().endToEndId, /^E60701190/)
  t.same(await balanceOf(app, acc.accountId), { available: 17.34, blocked: 0, invariantHolds: true })
  t.match(events, [{ eventType: 'cash_in', payload: { type: 'RECEIVE', data: { txId: null, status: 'LIQUIDATED', payment: { amount: '12.34' }, debtorAccount: { name: 'ANA', document: '**.222.333/0001-**' } } } }])
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/pix/incoming', payload: { accountId: 999, amount: 1 } })).statusCode, 404)
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/pix/incoming', payload: { accountId: acc.accountId, amount: 1.001 } })).statusCode, 400)
})

t.test('delivery faults of X-Sandbox-Scenario reach the cash_in event (pix-pay, pix-incoming)', async t => {
  const app = await buildTestApp(t)
  const events = recordEmits(app)
  const acc = await newAccount(app)
  const charge = await createCashIn(app, acc.token, cashInBody())
  const res = await app.inject({ method: 'POST', url: '/__sandbox/pix/pay', headers: { 'x-sandbox-scenario': 'WEBHOOK_DROP' }, payload: { pixCode: charge.pixCode } })
  t.equal(res.statusCode, 201)
  t.equal(res.headers['x-sandbox-scenario-applied'], 'WEBHOOK_DROP')
  const inc = await app.inject({ method: 'POST', url: '/__sandbox/pix/incoming', headers: { 'x-sandbox-scenario': 'WEBHOOK_DELAY;ms=100' }, payload: { accountId: acc.accountId, amount: 1 } })
  t.equal(inc.statusCode, 201)
  t.same(events.map(e => e.scenarios), [[{ name: 'WEBHOOK_DROP', params: {} }], [{ name: 'WEBHOOK_DELAY', params: { ms: '100' } }]])
})

const split = (over: Record<string, unknown>) => ({ pixKey: 'parceiro@example.com', pixKeyType: 'EMAIL', name: 'PARCEIRO', document: '11222333000181', type: 'FIXED', value: 10, ...over })

t.test('splits: immediate ones right after confirmation, the others at the account frequency; the remainder stays', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0, splitFrequency: 'DAILY' })
  const charge = await createCashIn(app, acc.token, cashInBody({
    value: 200,
    splits: [split({ value: 30, immediate: true }), split({ type: 'PERCENTAGE', value: 12.5, immediate: true }), split({ value: 20 }), split({ type: 'PERCENTAGE', value: 10 })],
  }))
  t.equal((await payCode(app, charge.pixCode)).statusCode, 201)
  // 200 - 30 - 25 (12.5%) paid at once; 20 and 20 (10%) wait for the next midnight in São Paulo (03:00 UTC).
  t.same(await balanceOf(app, acc.accountId), { available: 145, blocked: 0, invariantHolds: true })
  const splits = () => app.sandbox.store.transactionsOf(acc.accountId).filter(tx => tx.kind === 'SPLIT')
  t.same(splits().map(s => [s.amountCents, s.status]), [[3000, 'CONFIRMED'], [2500, 'CONFIRMED']])
  await advance(app, 12 * 3_600_000 - 1) // T0 is 15:00 UTC: midnight in São Paulo is 12 h later
  t.equal(splits().length, 2)
  await advance(app, 1)
  t.same(splits().map(s => [s.amountCents, s.status]), [[3000, 'CONFIRMED'], [2500, 'CONFIRMED'], [2000, 'CONFIRMED'], [2000, 'CONFIRMED']])
  t.same(await balanceOf(app, acc.accountId), { available: 105, blocked: 0, invariantHolds: true })
  t.match(splits()[2], { direction: 'OUT', pixKey: 'parceiro@example.com', counterpart: { name: 'PARCEIRO', document: '11222333000181' } })
})

t.test('splits of an HOURLY account wait for the next full hour; IMMEDIATE pays them all at once', async t => {
  const app = await buildTestApp(t)
  const hourly = await newAccount(app, { balance: 0, splitFrequency: 'HOURLY' })
  await app.inject({ method: 'POST', url: '/__sandbox/clock/advance', payload: { ms: 10 * 60_000 } }) // 15:10 UTC
  const c1 = await createCashIn(app, hourly.token, cashInBody({ value: 50, splits: [split({ type: 'PERCENTAGE', value: 33.33 })] }))
  await payCode(app, c1.pixCode)
  t.same(await balanceOf(app, hourly.accountId), { available: 50, blocked: 0, invariantHolds: true })
  await advance(app, 50 * 60_000) // 16:00 UTC
  t.same(await balanceOf(app, hourly.accountId), { available: 33.33, blocked: 0, invariantHolds: true }, '33.33% of 50 is 16.665, rounded half-up to 16.67')

  const immediate = await newAccount(app, { balance: 0, splitFrequency: 'IMMEDIATE' })
  const c2 = await createCashIn(app, immediate.token, cashInBody({ value: 50, splits: [split({ value: 50 })] }))
  await payCode(app, c2.pixCode)
  t.same(await balanceOf(app, immediate.accountId), { available: 0, blocked: 0, invariantHolds: true }, 'a split of the whole amount leaves nothing')
})
