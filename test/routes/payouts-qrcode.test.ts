import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { buildTestApp, balanceOf, newAccount, bearer } from '../helpers/app.js'
import { recordEmits, cashOutEvents, cashOutBody, cashOut, advance, transaction, JOAO } from '../helpers/payouts.js'
import { buildBrCode } from '../../server/domain/brcode.js'

const staticCode = (opts: { key?: string, amountCents?: number, merchantName?: string } = {}): string =>
  buildBrCode({ key: opts.key ?? JOAO.key, amountCents: opts.amountCents, merchantName: opts.merchantName ?? 'JOAO SOUZA', merchantCity: 'RECIFE' })

async function payCode (app: FastifyInstance, token: string, body: Record<string, unknown>, scenario?: string) {
  return app.inject({
    method: 'POST',
    url: '/api/pix/cash-out-qrcode',
    headers: { ...bearer(token), ...(scenario ? { 'x-sandbox-scenario': scenario } : {}) },
    payload: { externalId: `qr-${Math.random().toString(36).slice(2)}`, ...body },
  })
}

async function cashIn (app: FastifyInstance, token: string, value: number, expirationTime?: number): Promise<{ transactionId: string, pixCode: string }> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/pix/cash-in',
    headers: bearer(token),
    payload: {
      transaction: { value, description: 'pedido 42', externalId: `in-${Math.random().toString(36).slice(2)}`, ...(expirationTime ? { expirationTime } : {}) },
      payer: { fullName: 'Cliente', document: '52998224725' },
    },
  })
  if (res.statusCode !== 201) throw new Error(`cash-in failed: ${res.statusCode} ${res.body}`)
  return res.json()
}

t.test('an external static code is paid as a cash-out to its key', async t => {
  const app = await buildTestApp(t)
  const emitted = recordEmits(app)
  const acc = await newAccount(app, { balance: 100, fee: 0.5 })
  const res = await payCode(app, acc.token, { value: 25, qrCode: staticCode({ amountCents: 2500 }), externalId: 'qr-1' })
  t.equal(res.statusCode, 201)
  t.match(res.json(), { externalId: 'qr-1', status: 'PENDING', generateTime: '2026-03-10T15:00:00.000Z' })
  t.same(await balanceOf(app, acc.accountId), { available: 74.5, blocked: 25.5, invariantHolds: true })
  await advance(app, 50)
  t.same(await balanceOf(app, acc.accountId), { available: 74.5, blocked: 0, invariantHolds: true })
  const [event] = cashOutEvents(emitted, res.json().transactionId)
  t.match(event.payload, {
    event: 'CashOut',
    status: 'CONFIRMED',
    externalId: 'qr-1',
    pixKey: JOAO.key,
    originalAmount: 25,
    feeAmount: 0.5,
    finalAmount: 25.5,
    counterpart: { name: 'JOAO SOUZA', document: JOAO.document, bank: { bankISPB: '00360305' } },
  })
})

t.test('a code without amount takes any value; name and document may come from the body or the code', async t => {
  const app = await buildTestApp(t)
  const emitted = recordEmits(app)
  const acc = await newAccount(app, { balance: 100, fee: 0 })
  const code = staticCode({ key: 'loja.sem.cadastro@example.org', merchantName: 'PADARIA CENTRAL' })
  const res = await payCode(app, acc.token, { value: 7.77, qrCode: code, document: '65162559202' })
  t.equal(res.statusCode, 201)
  await advance(app, 50)
  t.match(cashOutEvents(emitted, res.json().transactionId)[0].payload, { status: 'CONFIRMED', counterpart: { name: 'PADARIA CENTRAL', document: '65162559202' } })
})

t.test('invalid data, an invalid code, an amount mismatch and insufficient balance are 400; nothing is reserved', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 10, fee: 0.5 })
  const good = staticCode({ amountCents: 500 })
  const badCrc = good.slice(0, -4) + (good.endsWith('0000') ? '1111' : '0000')
  const cases: Array<[Record<string, unknown>, string, string | RegExp]> = [
    [{ value: 5, qrCode: badCrc }, 'HTTP_ERROR', /qrCode inválido: CRC não confere/],
    [{ value: 5, qrCode: '000201' + 'x'.repeat(20) }, 'HTTP_ERROR', /qrCode deve ter no mínimo 50 caracteres/],
    [{ value: 5, qrCode: '123456' + good.slice(6) }, 'HTTP_ERROR', /qrCode deve começar com 000201, como todo BR Code/],
    [{ value: 6, qrCode: good }, 'HTTP_ERROR', /value deve ser igual ao valor do QR Code \(5.00\)/],
    [{ value: 5, qrCode: good, document: '11111111111' }, 'HTTP_ERROR', /document/],
    [{ value: 5.001, qrCode: good }, 'PIX_INVALID_AMOUNT', /casas decimais/],
    [{ value: 10, qrCode: staticCode() }, 'PIX_INSUFFICIENT_BALANCE', /Saldo insuficiente/],
  ]
  for (const [body, code, message] of cases) {
    const res = await payCode(app, acc.token, body)
    t.equal(res.statusCode, 400, JSON.stringify(body).slice(0, 60))
    t.equal(res.json().code, code)
    t.match(JSON.stringify(res.json().message), message)
  }
  t.same(await balanceOf(app, acc.accountId), { available: 10, blocked: 0, invariantHolds: true })
})

t.test('a reused externalId is 409, shared with cash-out (one namespace per account)', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 100, fee: 0 })
  t.equal((await payCode(app, acc.token, { value: 5, qrCode: staticCode(), externalId: 'same' })).statusCode, 201)
  const again = await payCode(app, acc.token, { value: 5, qrCode: staticCode(), externalId: 'same' })
  t.equal(again.statusCode, 409)
  t.match(again.json(), { statusCode: 409, code: 'PIX_DUPLICATE_EXTERNAL_ID', details: { externalId: 'same' } })
  const viaCashOut = await cashOut(app, acc.token, cashOutBody({ externalId: 'same' }))
  t.equal(viaCashOut.statusCode, 400)
  t.equal(viaCashOut.json().errorCode, 'PIX_DUPLICATE_EXTERNAL_ID')
  t.same(await balanceOf(app, acc.accountId), { available: 95, blocked: 5, invariantHolds: true })
})

t.test('QRCODE_ALREADY_PAID, QRCODE_NOT_AVAILABLE and PROVIDER_REJECTED: 422, a final ERROR record, nothing reserved or sent', async t => {
  const app = await buildTestApp(t)
  const emitted = recordEmits(app)
  const acc = await newAccount(app, { balance: 100, fee: 0.5 })
  for (const scenario of ['QRCODE_ALREADY_PAID', 'QRCODE_NOT_AVAILABLE', 'PROVIDER_REJECTED']) {
    const externalId = `rej-${scenario}`
    const res = await payCode(app, acc.token, { value: 5, qrCode: staticCode(), externalId }, scenario)
    t.equal(res.statusCode, 422, scenario)
    const body = res.json()
    if (scenario === 'PROVIDER_REJECTED') {
      t.notOk(body.errorCode, 'no QR Code errorCode: confirm through the transaction query')
      t.equal(body.code, 'HTTP_ERROR', 'a generic 422: code HTTP_ERROR (spec 7)')
    } else {
      t.equal(body.errorCode, scenario)
    }
    const [tx] = (await app.inject({ method: 'GET', url: `/__sandbox/transactions?accountId=${acc.accountId}&limit=1` })).json().transactions
    t.match(tx, { kind: 'CASH_OUT_QRCODE', externalId, status: 'ERROR', errorCode: scenario })
    const retry = await payCode(app, acc.token, { value: 5, qrCode: staticCode(), externalId })
    t.equal(retry.statusCode, 409, `${scenario}: the externalId is consumed`)
  }
  await advance(app, 1000)
  t.same(await balanceOf(app, acc.accountId), { available: 100, blocked: 0, invariantHolds: true })
  t.same(cashOutEvents(emitted), [])
})

t.test('INTERNAL_ERROR: 500, yet the payment exists and settles later', async t => {
  const app = await buildTestApp(t)
  const emitted = recordEmits(app)
  const acc = await newAccount(app, { balance: 100, fee: 0.5 })
  const res = await payCode(app, acc.token, { value: 10, qrCode: staticCode(), externalId: 'indeterminate' }, 'INTERNAL_ERROR')
  t.equal(res.statusCode, 500)
  t.match(res.json(), { statusCode: 500, code: 'HTTP_ERROR', error: 'Internal Server Error', path: '/pix/cash-out-qrcode' })
  const [tx] = (await app.inject({ method: 'GET', url: `/__sandbox/transactions?accountId=${acc.accountId}` })).json().transactions
  t.match(tx, { externalId: 'indeterminate', status: 'PENDING' })
  t.same(await balanceOf(app, acc.accountId), { available: 89.5, blocked: 10.5, invariantHolds: true })
  await advance(app, 50)
  t.equal((await transaction(app, tx.id)).status, 'CONFIRMED')
  t.same(await balanceOf(app, acc.accountId), { available: 89.5, blocked: 0, invariantHolds: true })
  t.match(cashOutEvents(emitted, tx.id)[0].payload, { status: 'CONFIRMED', externalId: 'indeterminate' })
  t.equal((await payCode(app, acc.token, { value: 10, qrCode: staticCode(), externalId: 'indeterminate' })).statusCode, 409, 'a blind retry does not pay twice')
})

t.test('a code from another account\'s cash-in pays that charge for real', async t => {
  const app = await buildTestApp(t)
  const emitted = recordEmits(app)
  const payer = await newAccount(app, { balance: 100, fee: 0.5 })
  const receiver = await newAccount(app, { balance: 0, name: 'LOJA RECEBEDORA LTDA' })
  const charge = await cashIn(app, receiver.token, 30)

  t.equal((await payCode(app, payer.token, { value: 31, qrCode: charge.pixCode })).statusCode, 400, 'the embedded amount rules')
  const res = await payCode(app, payer.token, { value: 30, qrCode: charge.pixCode, externalId: 'paga-cobranca' })
  t.equal(res.statusCode, 201)
  const second = await payCode(app, payer.token, { value: 30, qrCode: charge.pixCode })
  t.equal(second.statusCode, 422, 'a single-use code already being paid')
  t.equal(second.json().errorCode, 'QRCODE_ALREADY_PAID')
  t.same(await balanceOf(app, receiver.accountId), { available: 0, blocked: 0, invariantHolds: true }, 'nothing arrives before settlement')

  await advance(app, 50)
  t.same(await balanceOf(app, payer.accountId), { available: 69.5, blocked: 0, invariantHolds: true })
  t.same(await balanceOf(app, receiver.accountId), { available: 30, blocked: 0, invariantHolds: true })
  const out = await transaction(app, res.json().transactionId)
  const received = await transaction(app, charge.transactionId)
  t.equal(out.status, 'CONFIRMED')
  t.equal(received.status, 'CONFIRMED')
  t.equal(received.endToEndId, out.endToEndId, 'both sides share one endToEndId')
  t.match(cashOutEvents(emitted, out.id)[0].payload, { status: 'CONFIRMED', counterpart: { name: 'LOJA RECEBEDORA LTDA', bank: { bankISPB: '99999004' } } })
  t.ok(emitted.some(e => e.eventType === 'cash_in' && e.accountId === receiver.accountId), 'the receiver gets its cash_in webhook')

  const again = await payCode(app, payer.token, { value: 30, qrCode: charge.pixCode })
  t.equal(again.statusCode, 422)
  t.equal(again.json().errorCode, 'QRCODE_ALREADY_PAID')
  t.same(await balanceOf(app, payer.accountId), { available: 69.5, blocked: 0, invariantHolds: true })
})

t.test('a charge of this sandbox that refuses the payment, or can no longer take it at settlement: ORDER_REJECTED, nothing credited, the reservation back', async t => {
  const app = await buildTestApp(t)
  const emitted = recordEmits(app)
  const payer = await newAccount(app, { balance: 100, fee: 0 })
  const receiver = await newAccount(app, { balance: 0 })
  const refusing = (await app.inject({
    method: 'POST',
    url: '/api/pix/cash-in',
    headers: { ...bearer(receiver.token), 'x-sandbox-scenario': 'PAYMENT_ERROR' },
    payload: { transaction: { value: 20, description: 'pedido 43', externalId: 'recusa' }, payer: { fullName: 'Cliente', document: '52998224725' } },
  })).json()
  const expiring = await cashIn(app, receiver.token, 10, 30)
  const refused = await payCode(app, payer.token, { value: 20, qrCode: refusing.pixCode })
  const late = await payCode(app, payer.token, { value: 10, qrCode: expiring.pixCode }, 'SETTLEMENT_DELAY;ms=31000')
  t.same(await balanceOf(app, payer.accountId), { available: 70, blocked: 30, invariantHolds: true })

  await advance(app, 31_000)
  const refusedOut = await transaction(app, refused.json().transactionId)
  t.match(refusedOut, { status: 'ERROR', errorCode: 'ORDER_REJECTED', errorMessage: 'Pagamento rejeitado pela instituição de destino' })
  t.match(await transaction(app, refusing.transactionId), { status: 'ERROR', errorCode: 'PAYMENT_ERROR' }, 'the charge ends as its provider refused it')
  t.match(emitted.filter(e => e.eventType === 'cash_in' && e.accountId === receiver.accountId).map(e => e.payload), [{ data: { status: 'ERROR', errorCode: 'PAYMENT_ERROR' } }], 'the receiver hears of the refused payment')
  t.match(await transaction(app, late.json().transactionId), { status: 'ERROR', errorCode: 'ORDER_REJECTED', errorMessage: 'QR Code não está mais disponível para pagamento' }, 'expired before settlement')
  t.equal((await transaction(app, expiring.transactionId)).status, 'ERROR', 'the expired charge was not paid')
  t.same(await balanceOf(app, payer.accountId), { available: 100, blocked: 0, invariantHolds: true })
  t.same(await balanceOf(app, receiver.accountId), { available: 0, blocked: 0, invariantHolds: true })
  t.same(cashOutEvents(emitted).map(e => (e.payload as { errorCode: string }).errorCode), ['ORDER_REJECTED', 'ORDER_REJECTED'])
})

t.test('an expired charge of this sandbox is QRCODE_NOT_AVAILABLE', async t => {
  const app = await buildTestApp(t)
  const payer = await newAccount(app, { balance: 100 })
  const receiver = await newAccount(app, { balance: 0 })
  const charge = await cashIn(app, receiver.token, 10, 30)
  await advance(app, 31_000)
  const res = await payCode(app, payer.token, { value: 10, qrCode: charge.pixCode })
  t.equal(res.statusCode, 422)
  t.equal(res.json().errorCode, 'QRCODE_NOT_AVAILABLE')
  t.same(await balanceOf(app, payer.accountId), { available: 100, blocked: 0, invariantHolds: true })
})

t.test('a dynamic code whose location this sandbox did not issue cannot be fetched: 422 QRCODE_NOT_AVAILABLE, recorded, nothing reserved or sent', async t => {
  const app = await buildTestApp(t)
  const emitted = recordEmits(app)
  const acc = await newAccount(app, { balance: 100, fee: 0.5 })
  const codes: Array<[string, string, number]> = [
    // BCB's manual example (no amount: a provider would otherwise pay any value to an invented holder).
    ['BCB manual', '00020101021226770014BR.GOV.BCB.PIX2555pix.example.com/qr/93598be0-1bd0-4997-8318-81776a1d8a995204000053039865802BR5907EMPRESA6009SAO PAULO62070503***6304EEAB', 12.34],
    ['another institution, with amount', buildBrCode({ location: 'qr.outrobanco.com.br/v2/cobv/8f1a2b3c', amountCents: 500, merchantName: 'LOJA', merchantCity: 'RECIFE', singleUse: true }), 5],
    ['this sandbox\'s host, no such charge', buildBrCode({ location: 'pix.sandbox.local/qr/v2/00000000-0000-4000-8000-000000000000', merchantName: 'LOJA', merchantCity: 'RECIFE' }), 5],
  ]
  for (const [name, qrCode, value] of codes) {
    const res = await payCode(app, acc.token, { value, qrCode, externalId: `foreign-${value}-${name.length}` })
    t.equal(res.statusCode, 422, name)
    t.match(res.json(), { errorCode: 'QRCODE_NOT_AVAILABLE', message: /Não foi possível obter o payload/ }, name)
    const [tx] = (await app.inject({ method: 'GET', url: `/__sandbox/transactions?accountId=${acc.accountId}&limit=1` })).json().transactions
    t.match(tx, { kind: 'CASH_OUT_QRCODE', status: 'ERROR', errorCode: 'QRCODE_NOT_AVAILABLE' }, `${name}: recorded as a final ERROR`)
  }
  await advance(app, 1000)
  t.same(await balanceOf(app, acc.accountId), { available: 100, blocked: 0, invariantHolds: true }, 'nothing reserved, nothing debited')
  t.same(cashOutEvents(emitted), [], 'no webhook')
})

t.test('a static code whose key has the shape of no key type is 400 invalid QR Code; nothing recorded or reserved', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 100, fee: 0.5 })
  for (const key of ['abc', '123', 'joao@', '+5511', '11999998888']) {
    const res = await payCode(app, acc.token, { value: 5, qrCode: staticCode({ key }) })
    t.equal(res.statusCode, 400, key)
    t.match(res.json(), { code: 'HTTP_ERROR', message: [/qrCode inválido: a chave .* não tem o formato de nenhum tipo de chave PIX/] }, key)
  }
  t.same((await app.inject({ method: 'GET', url: `/__sandbox/transactions?accountId=${acc.accountId}` })).json().transactions, [])
  t.same(await balanceOf(app, acc.accountId), { available: 100, blocked: 0, invariantHolds: true })
  // Every key type's shape is still paid: CPF, CNPJ, e-mail, +55 phone, EVP hyphenated and compact.
  for (const key of ['52998224725', '11222333000181', 'loja@example.org', '+5511999998888', '123e4567-e89b-42d3-a456-426614174000', '123e4567e89b42d3a456426614174000']) {
    t.equal((await payCode(app, acc.token, { value: 1, qrCode: staticCode({ key }) })).statusCode, 201, key)
  }
})
