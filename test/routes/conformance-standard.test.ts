import t from 'tap'
import { balanceOf, bearer, buildTestApp, newAccount } from '../helpers/app.js'
import { buildBrCode } from '../../server/domain/brcode.js'

/**
 * Conformance of the standard family (/api/* and /balance) to the rules of the spec that cut across
 * endpoints (section 7's extended shape, section 8's limits) and that no capability test covered.
 */

t.test('spec 7: in the extended shape `code` is HTTP_ERROR on every generic error (those with `error`, no errorCode)', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 100 })
  const generic = [
    await app.inject({ method: 'GET', url: '/balance' }), // 401
    await app.inject({ method: 'GET', url: '/api/med', headers: bearer('not-a-token') }), // 401
    await app.inject({ method: 'POST', url: '/api/pix/refund-in/nope', headers: bearer(acc.token), payload: { refundValue: 1 } }), // 404
    await app.inject({ method: 'GET', url: '/api/med', headers: { ...bearer(acc.token), 'x-sandbox-scenario': 'INTERNAL_ERROR' } }), // 500
  ]
  for (const res of generic) {
    const body = res.json()
    t.type(body.error, 'string', `${res.statusCode} is generic`)
    t.notOk('errorCode' in body, `${res.statusCode}: no errorCode`)
    t.equal(body.code, 'HTTP_ERROR', `${res.statusCode}: code is HTTP_ERROR, not a business code without errorCode`)
  }
  const business = await app.inject({ method: 'GET', url: '/api/med', headers: { ...bearer(acc.token), 'x-sandbox-scenario': 'RATE_LIMITED' } })
  t.equal(business.statusCode, 429)
  t.equal(business.json().code, business.json().errorCode, 'a business error: code and errorCode agree')
})

t.test('spec 7, 7.10: a malformed date is listed with the other invalid query fields of GET /api/med, one entry each', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const res = await app.inject({ method: 'GET', url: '/api/med?status=FOO&startDate=ontem&endDate=2026-03-10T25&pageSize=101', headers: bearer(acc.token) })
  t.equal(res.statusCode, 400)
  const message: string[] = res.json().message
  t.equal(res.json().code, 'HTTP_ERROR')
  for (const field of ['status', 'startDate', 'endDate', 'pageSize']) t.equal(message.filter(m => m.startsWith(`${field} `)).length, 1, `one entry for ${field}`)
  t.equal(message.length, 4)
})

const post = (app: Awaited<ReturnType<typeof buildTestApp>>, token: string, url: string, payload: unknown) =>
  app.inject({ method: 'POST', url, headers: bearer(token), payload: payload as Record<string, unknown> })

t.test('spec 7, 7.2, 7.4: a malformed document is one of the entries of a validation error, not a separate answer', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 100 })
  const cashOut = await post(app, acc.token, '/api/pix/cash-out', {
    value: 1,
    externalId: 'x',
    description: 'd'.repeat(141),
    details: { key: 'joao.souza@example.com', keyType: 'EMAIL', name: 'Joao', document: '12345678901' },
  })
  t.equal(cashOut.statusCode, 400)
  t.equal(cashOut.json().code, 'HTTP_ERROR')
  t.equal(cashOut.json().message.length, 2, 'description and details.document')
  t.ok(cashOut.json().message.some((m: string) => m.startsWith('details.document ')), 'names details.document')

  const qr = await post(app, acc.token, '/api/pix/cash-out-qrcode', { value: 1, qrCode: '000201' + 'x'.repeat(44), externalId: '', document: '123' })
  t.equal(qr.statusCode, 400)
  t.same(qr.json().message.map((m: string) => m.split(' ')[0]).sort(), ['document', 'externalId'])

  const cashIn = await post(app, acc.token, '/api/pix/cash-in', {
    transaction: { value: 10, description: 'd', externalId: 'e', expirationTime: 10 },
    payer: { fullName: 'Maria', document: '11111111111' },
    splits: [{ pixKey: 'a@b.com', pixKeyType: 'EMAIL', name: 'n', document: '52998224726', type: 'FIXED', value: 1 }],
  })
  t.equal(cashIn.statusCode, 400)
  t.same(cashIn.json().message.map((m: string) => m.split(' ')[0]).sort(), ['payer.document', 'splits[0].document', 'transaction.expirationTime'])
  t.same(await balanceOf(app, acc.accountId), { available: 100, blocked: 0, invariantHolds: true })
})

t.test('spec 2.6: splits[].document is a CPF or CNPJ of digits only (no alphanumeric CNPJ)', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const split = (document: string) => ({ pixKey: 'a@b.com', pixKeyType: 'EMAIL', name: 'n', document, type: 'FIXED', value: 1 })
  const body = (document: string) => ({ transaction: { value: 10, description: 'd', externalId: `e-${document}` }, payer: { fullName: 'Maria', document: '52998224725' }, splits: [split(document)] })
  const alnum = await post(app, acc.token, '/api/pix/cash-in', body('12ABC34501DE35'))
  t.equal(alnum.statusCode, 400, 'a valid alphanumeric CNPJ is refused')
  t.same(alnum.json().message.map((m: string) => m.split(' ')[0]), ['splits[0].document'])
  t.equal((await post(app, acc.token, '/api/pix/cash-in', body('11222333000181'))).statusCode, 201, 'a numeric CNPJ is accepted')
  t.equal((await post(app, acc.token, '/api/pix/cash-in', body('52998224725'))).statusCode, 201, 'a CPF is accepted')
})

t.test('the 2026 alphanumeric CNPJ on the gateway\'s families: refused unless --alphanumeric-cnpj enabled (docs/assumptions.md)', async t => {
  const ALNUM = '12ABC34501DE35'
  const qrCode = buildBrCode({ key: 'joao.souza@example.com', amountCents: 500, merchantName: 'JOAO SOUZA', merchantCity: 'RECIFE' })
  /** Each field that takes a document, given the alphanumeric CNPJ: the answer's status and its first message. */
  async function answers (app: Awaited<ReturnType<typeof buildTestApp>>) {
    const acc = await newAccount(app, { balance: 100 })
    const cashOut = (details: Record<string, unknown>, externalId: string) => post(app, acc.token, '/api/pix/cash-out',
      { value: 1, externalId, details: { key: 'joao.souza@example.com', keyType: 'EMAIL', name: 'Joao', document: '03742693433', ...details } })
    const got = {
      'DOCUMENT key': await cashOut({ key: ALNUM, keyType: 'DOCUMENT' }, 'k'),
      'details.document': await cashOut({ document: ALNUM }, 'd'),
      'payer.document': await post(app, acc.token, '/api/pix/cash-in', { transaction: { value: 10, description: 'd', externalId: 'p' }, payer: { fullName: 'Maria', document: ALNUM } }),
      'cash-out-qrcode document': await post(app, acc.token, '/api/pix/cash-out-qrcode', { value: 5, qrCode, externalId: 'q', document: ALNUM }),
      creditorDocument: await app.inject({
        method: 'POST',
        url: '/dict/pix',
        headers: { ...bearer(acc.token), 'x-idempotency-key': '7b3f1a52-5a4c-4c5e-9f1e-2a2b3c4d5e6f' },
        payload: { pixKey: '52998224725', payment: { currency: 'BRL', amount: 1 }, priority: 'HIGH', creditorDocument: ALNUM },
      }),
    }
    return Object.fromEntries(Object.entries(got).map(([field, res]) => [field, res.statusCode]))
  }
  const digitsOnly = await answers(await buildTestApp(t))
  t.same(digitsOnly, { 'DOCUMENT key': 400, 'details.document': 400, 'payer.document': 400, 'cash-out-qrcode document': 400, creditorDocument: 400 }, 'digits only by default')
  const alphanumeric = await answers(await buildTestApp(t, { alphanumericCnpj: 'enabled' }))
  t.same(alphanumeric, { 'DOCUMENT key': 201, 'details.document': 201, 'payer.document': 201, 'cash-out-qrcode document': 201, creditorDocument: 201 }, 'accepted with the setting')
  const split = { pixKey: 'a@b.com', pixKeyType: 'EMAIL', name: 'n', document: ALNUM, type: 'FIXED', value: 1 }
  for (const setting of ['disabled', 'enabled'] as const) {
    const app = await buildTestApp(t, { alphanumericCnpj: setting })
    const acc = await newAccount(app, { balance: 100 })
    const res = await post(app, acc.token, '/api/pix/cash-in', { transaction: { value: 10, description: 'd', externalId: 's' }, payer: { fullName: 'M', document: '52998224725' }, splits: [split] })
    t.equal(res.statusCode, 400, `splits[].document stays digits only (${setting})`)
  }
})
