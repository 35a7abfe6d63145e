import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { buildBrCode, parseBrCode } from '../../server/domain/brcode.js'
import { aTxid, cashInBody, createCashIn, payCode } from '../helpers/payins.js'
import { advance, balanceOf, bearer, buildTestApp, newAccount, NO_MTLS_CHECK, recordEmits } from '../helpers/app.js'
import { checkAnswer, jwsPart, oauthToken } from '../helpers/api-pix.js'
import { client, recBody } from '../helpers/rec.js'
import { tagOf } from '../helpers/brcode-readers.js'

/**
 * A dynamic BR Code carries no amount (tag 54), as none of BACEN's examples does: the payer's PSP reads
 * the amount in the payload at the code's location, rendered from the charge when it is read. So a code
 * shown before a PATCH of `valor` pays the new value, through every way the sandbox pays a code
 * (docs/api-pix.md, Payload locations and the key; docs/assumptions.md, Charges).
 */

const KEY = 'loja@example.com'
const DOCUMENT = '11222333000181'
const HOOK = 'https://erp.example.com/api/webhook'

/** An account whose document is DOCUMENT, holding KEY, with API Pix's webhook on KEY. */
async function receiver (t: Test, app: FastifyInstance) {
  const acc = await newAccount(app, { document: DOCUMENT, balance: 0, ...NO_MTLS_CHECK })
  const { ispb } = (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json()
  t.equal((await app.inject({ method: 'PUT', url: `/__sandbox/directory/${KEY}`, payload: { name: 'LOJA', document: DOCUMENT, ispb, bankName: 'SANDBOX' } })).statusCode, 201)
  const call = client(app, await oauthToken(app, acc))
  t.equal((await call('PUT', `/v2/webhook/${KEY}`, { webhookUrl: HOOK })).statusCode, 200)
  return { acc, call }
}

const pixCallbacks = async (app: FastifyInstance, accountId: number) =>
  (await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries?accountId=${accountId}&eventType=pix` })).json().deliveries as Array<{ body: { pix: Array<{ valor: string }> } }>

t.test('a cob\'s code shown before a PATCH of valor pays the new value: ledger, GET /cob, the /pix callback and cash_in say so', async t => {
  const app = await buildTestApp(t)
  const emitted = recordEmits(app)
  const { acc, call } = await receiver(t, app)
  const txid = aTxid(1)
  const shown = (await call('PUT', `/v2/cob/${txid}`, { calendario: { expiracao: 3600 }, valor: { original: '10.00' }, chave: KEY })).json()
  t.equal(tagOf(shown.pixCopiaECola, '54'), undefined, 'no tag 54: the amount is at the location')
  t.equal(tagOf(shown.pixCopiaECola, '26', '25'), shown.location)

  const revised = await call('PATCH', `/v2/cob/${txid}`, { valor: { original: '25.00' } })
  checkAnswer(t, revised, 'PATCH', '/cob/{txid}')
  t.match(revised.json(), { revisao: 1, valor: { original: '25.00' } })
  t.equal(revised.json().pixCopiaECola, shown.pixCopiaECola, 'the code stays the same')
  const payload = await app.inject({ method: 'GET', url: shown.location.slice(shown.location.indexOf('/')) })
  t.match(jwsPart(payload.body, 1), { txid, revisao: 1, valor: { original: '25.00' } }, 'what the payer\'s PSP reads at the location')

  const stale = await payCode(app, shown.pixCopiaECola, { amount: 10 })
  t.equal(stale.statusCode, 400, 'the amount of before the PATCH is refused')
  t.equal(stale.json().code, 'PIX_AMOUNT_MISMATCH')
  t.same(await balanceOf(app, acc.accountId), { available: 0, blocked: 0, invariantHolds: true }, 'and nothing moved')

  const paid = await payCode(app, shown.pixCopiaECola)
  t.equal(paid.statusCode, 201, paid.body)
  t.match(paid.json(), { kind: 'COB', status: 'CONCLUIDA', amount: 25, txid })
  t.same(await balanceOf(app, acc.accountId), { available: 25, blocked: 0, invariantHolds: true })
  t.match((await call('GET', `/v2/cob/${txid}`)).json(), { status: 'CONCLUIDA', pix: [{ valor: '25.00', txid }] })
  t.match(await pixCallbacks(app, acc.accountId), [{ body: { pix: [{ valor: '25.00', txid }] } }], 'the /pix callback')
  t.match(emitted.filter(e => e.eventType === 'cash_in'), [{ payload: { data: { txId: txid, payment: { amount: '25.00' } } } }], 'the gateway\'s cash_in')
})

t.test('the gateway\'s cash-out by QR code pays a root-family cob\'s code shown before its PATCH the new value', async t => {
  const app = await buildTestApp(t)
  const receiving = await newAccount(app, { balance: 0 })
  const payer = await newAccount(app, { balance: 100, fee: 0 })
  const txid = aTxid(2)
  const shown = (await app.inject({ method: 'PUT', url: `/cob/${txid}`, headers: bearer(receiving.token), payload: { calendario: { expiracao: 3600 }, valor: { original: '10.00', modalidadeAlteracao: 0 } } })).json()
  const code = parseBrCode(shown.location)
  t.ok(code.ok && code.value.amountCents === undefined, 'the gateway\'s code (its location) carries no amount either')
  t.equal((await app.inject({ method: 'PATCH', url: `/cob/${txid}`, headers: bearer(receiving.token), payload: { valor: { original: '12.00' } } })).statusCode, 200)

  const cashOut = (value: number, externalId: string) =>
    app.inject({ method: 'POST', url: '/api/pix/cash-out-qrcode', headers: bearer(payer.token), payload: { value, qrCode: shown.location, externalId } })
  const stale = await cashOut(10, 'qr-stale')
  t.equal(stale.statusCode, 400, 'the value of before the PATCH is refused')
  t.match(stale.json(), { message: /12\.00/ })
  t.same(await balanceOf(app, payer.accountId), { available: 100, blocked: 0, invariantHolds: true })
  const out = await cashOut(12, 'qr-current')
  t.equal(out.statusCode, 201, out.body)
  await advance(app, 1000)
  t.match((await app.inject({ method: 'GET', url: `/cob/${txid}`, headers: bearer(receiving.token) })).json(), { status: 'CONCLUIDA' })
  t.same(await balanceOf(app, receiving.accountId), { available: 12, blocked: 0, invariantHolds: true })
  t.same(await balanceOf(app, payer.accountId), { available: 88, blocked: 0, invariantHolds: true })
})

t.test('journey 3: a composite code shown before the cob\'s PATCH pays the new value and approves the recurrence', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 })
  const call = client(app, await oauthToken(app, acc))
  const txid = aTxid(3)
  await call('PUT', `/v2/cob/${txid}`, { calendario: { expiracao: 3600 }, valor: { original: '35.00' }, chave: KEY })
  const loc = (await call('POST', '/v2/locrec')).json()
  const rec = (await call('POST', '/v2/rec', recBody({ loc: loc.id, ativacao: { dadosJornada: { txid } } }))).json()
  const { dadosQR } = (await call('GET', `/v2/rec/${rec.idRec}?txid=${txid}`)).json()
  t.equal(tagOf(dadosQR.pixCopiaECola, '54'), undefined, 'no tag 54 in the composite code, as in API Pix\'s example')
  t.equal((await call('PATCH', `/v2/cob/${txid}`, { valor: { original: '40.00' } })).statusCode, 200)

  const paid = await payCode(app, dadosQR.pixCopiaECola)
  t.equal(paid.statusCode, 201, paid.body)
  t.match(paid.json(), { amount: 40, txid })
  t.same(await balanceOf(app, acc.accountId), { available: 40, blocked: 0, invariantHolds: true })
  t.match((await call('GET', `/v2/rec/${rec.idRec}`)).json(), { status: 'APROVADA', ativacao: { tipoJornada: 'JORNADA_3' } })
})

t.test('a cobv\'s code shown before a PATCH of valor pays the amount due then of the new value, its fine after the due date included', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 })
  const call = client(app, await oauthToken(app, acc))
  const txid = aTxid(5)
  const shown = (await call('PUT', `/v2/cobv/${txid}`, {
    calendario: { dataDeVencimento: '2026-03-11', validadeAposVencimento: 5 },
    devedor: { cpf: '52998224725', nome: 'Fulano de Tal' },
    valor: { original: '100.00', multa: { modalidade: 2, valorPerc: '2.00' } },
    chave: KEY,
  })).json()
  t.equal(tagOf(shown.pixCopiaECola, '54'), undefined)
  t.equal((await call('PATCH', `/v2/cobv/${txid}`, { valor: { original: '150.00', multa: { modalidade: 2, valorPerc: '2.00' } } })).statusCode, 200)
  await advance(app, 2 * 86_400_000) // 2026-03-12 in São Paulo: a day late, the 2% fine due
  const paid = await payCode(app, shown.pixCopiaECola)
  t.equal(paid.statusCode, 201, paid.body)
  t.match(paid.json(), { kind: 'COBV', amount: 153, txid })
  t.same(await balanceOf(app, acc.accountId), { available: 153, blocked: 0, invariantHolds: true })
})

t.test('a cash-in\'s code carries no amount and pays the charge\'s value; a given amount must be it', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 })
  const charge = await createCashIn(app, acc.token, cashInBody({ value: 42.1 }))
  t.same([tagOf(charge.pixCode, '01'), tagOf(charge.pixCode, '54'), tagOf(charge.pixCode, '62', '05')], ['12', undefined, '***'])
  const wrong = await payCode(app, charge.pixCode, { amount: 42 })
  t.equal(wrong.json().code, 'PIX_AMOUNT_MISMATCH')
  t.match((await payCode(app, charge.pixCode)).json(), { status: 'CONFIRMED', amount: 42.1 })
  t.same(await balanceOf(app, acc.accountId), { available: 42.1, blocked: 0, invariantHolds: true })
})

t.test('a dynamic code that carries a tag 54 all the same (an older data file\'s) is paid its charge\'s amount', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 })
  const call = client(app, await oauthToken(app, acc))
  const cob = (await call('PUT', `/v2/cob/${aTxid(4)}`, { calendario: {}, valor: { original: '20.00' }, chave: KEY })).json()
  const older = buildBrCode({ location: cob.location, singleUse: true, amountCents: 1500, merchantName: 'X', merchantCity: 'SAO PAULO' })
  t.match((await payCode(app, older)).json(), { status: 'CONCLUIDA', amount: 20 })
  t.same(await balanceOf(app, acc.accountId), { available: 20, blocked: 0, invariantHolds: true })
})
