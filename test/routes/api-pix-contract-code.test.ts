import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { parseTLV } from 'pix-qr-code-detail'
import { tagOf as tag } from '../helpers/brcode-readers.js'
import { crc16 } from '../../server/domain/brcode.js'
import { payCode } from '../helpers/payins.js'
import { advance, balanceOf, bearer, buildTestApp, newAccount, NO_MTLS_CHECK } from '../helpers/app.js'
import { checkAnswer, oauthToken } from '../helpers/api-pix.js'
import { client, control, recBody } from '../helpers/rec.js'

/**
 * The static code of a recurrence's contract, journey 4's other form (docs/api-pix.md, Pix Automático):
 * made on the control plane, read by a BR Code reader nobody here wrote (pix-qr-code-detail), and paid
 * as a payer's bank app or another account's cash-out by QR code pays it: a PIX received on the key,
 * and the recurrence answered by its payer while CRIADA. Every API Pix answer validated against BACEN's
 * API Pix 2.9.0.
 */

const DOCUMENT = '11222333000181'
const KEY = 'loja@example.com'
const CONTRACT = '63100862'

/** A receiving account whose document is DOCUMENT, holding KEY in the directory, with a recurrence served at a location. */
async function receiver (app: FastifyInstance, over: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const acc = await newAccount(app, { document: DOCUMENT, balance: 0, ...NO_MTLS_CHECK })
  const { ispb } = (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json()
  const put = await app.inject({ method: 'PUT', url: `/__sandbox/directory/${KEY}`, payload: { name: 'LOJA', document: DOCUMENT, ispb, bankName: 'SANDBOX' } })
  if (put.statusCode >= 300) throw new Error(put.body)
  const token = await oauthToken(app, acc)
  const call = client(app, token)
  const loc = (await call('POST', '/v2/locrec')).json()
  const made = await app.inject({ method: 'POST', url: '/v2/rec', headers: { ...bearer(token), ...headers }, payload: recBody({ loc: loc.id, ...over }) })
  if (made.statusCode !== 201) throw new Error(made.body)
  return { acc, call, loc, idRec: made.json().idRec as string }
}

const staticCode = (app: FastifyInstance, idRec: string, body: object = {}) => control(app, `/__sandbox/recurrences/${idRec}/static-code`, body)

/** What /webhookrec was told of a recurrence, in order. */
async function toldRec (app: FastifyInstance, idRec: string) {
  const log = (await app.inject({ method: 'GET', url: '/__sandbox/webhooks/deliveries?eventType=rec&limit=100' })).json().deliveries as Array<{ seq: number, body: { recs: Array<{ idRec: string, status: string, ativacao: unknown }> } }>
  return log.sort((a, b) => a.seq - b.seq).map(d => d.body.recs[0]).filter(r => r.idRec === idRec)
}

async function pixDeliveries (app: FastifyInstance, accountId: number) {
  return (await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries?accountId=${accountId}&eventType=pix` })).json().deliveries as Array<{ url: string, body: unknown }>
}

async function checkApproved (t: Test, call: ReturnType<typeof client>, idRec: string, ispbParticipante: string) {
  const rec = await call('GET', `/v2/rec/${idRec}`)
  checkAnswer(t, rec, 'GET', '/rec/{idRec}')
  t.match(rec.json(), { status: 'APROVADA', ativacao: { tipoJornada: 'JORNADA_4' }, pagador: { ispbParticipante, cpf: '45164632481' } })
  t.notOk('dadosJornada' in rec.json().ativacao, 'journey 4 names no immediate charge')
  return rec.json()
}

t.test('the static code: tag 26 with the key, the amount only when given, the contract as txid, tag 80 with the recurrence\'s location', async t => {
  const app = await buildTestApp(t)
  const { loc, idRec } = await receiver(app)
  const res = await staticCode(app, idRec, { chave: KEY.toUpperCase(), valor: '35.00' })
  t.equal(res.statusCode, 200, res.body)
  t.equal(res.json().jornada, 'JORNADA_4')
  const code: string = res.json().pixCopiaECola
  const tlvs = parseTLV(code)
  t.equal(tag(tlvs, '00'), '01')
  t.equal(tag(tlvs, '01'), undefined, 'a static code: no point of initiation 12')
  t.equal(tag(tlvs, '26', '00'), 'br.gov.bcb.pix')
  t.equal(tag(tlvs, '26', '01'), KEY, 'the key, in its canonical form')
  t.equal(tag(tlvs, '26', '25'), undefined, 'no location in tag 26: nothing to fetch')
  t.equal(tag(tlvs, '54'), '35.00')
  t.equal(tag(tlvs, '62', '05'), CONTRACT, 'the contract as txid')
  t.equal(tag(tlvs, '80', '00'), 'br.gov.bcb.pix')
  t.equal(tag(tlvs, '80', '25'), loc.location, 'the recurrence\'s location')
  t.equal(tlvs[tlvs.length - 1].tag, '63')
  t.equal(tag(tlvs, '63'), crc16(code.slice(0, -4)), 'the CRC of everything before it')

  // Without valor, no amount (the payer names it); without chave, the account's document.
  const bare = parseTLV((await staticCode(app, idRec)).json().pixCopiaECola)
  t.equal(tag(bare, '54'), undefined)
  t.equal(tag(bare, '26', '01'), DOCUMENT)
  // A contract no static code's txid can be (1 to 25 letters and digits): ***.
  const other = await receiver(app, { vinculo: { contrato: 'CT-2026/001', devedor: { cpf: '45164632481', nome: 'Fulano de Tal' }, objeto: 'x' } })
  t.equal(tag(parseTLV((await staticCode(app, other.idRec)).json().pixCopiaECola), '62', '05'), '***')
})

t.test('refusals in the control plane\'s shape: no location, a key the account does not hold, a bad valor, an unknown or ended recurrence', async t => {
  const app = await buildTestApp(t)
  const { call, idRec } = await receiver(app)
  const noLoc = (await call('POST', '/v2/rec', recBody())).json().idRec
  const cases: Array<[string, object, number, string, RegExp]> = [
    [noLoc, {}, 409, 'REC_INVALID_TRANSITION', /has no location/],
    [idRec, { chave: 'outra@example.com' }, 400, 'HTTP_ERROR', /not a key account \d+ holds/],
    [idRec, { chave: 'not a key' }, 400, 'HTTP_ERROR', /not a key/],
    [idRec, { valor: '0.00' }, 400, 'HTTP_ERROR', /valor must be a positive amount/],
    [idRec, { valor: '35' }, 400, 'HTTP_ERROR', /valor/],
    ['RR1234567820260310abcdefghijk', {}, 404, 'NOT_FOUND', /not found/],
  ]
  for (const [id, body, status, code, message] of cases) {
    const res = await staticCode(app, id, body)
    t.equal(res.statusCode, status, `${id} ${JSON.stringify(body)}: ${res.body}`)
    t.match(res.json(), { code, message })
  }
  await control(app, `/__sandbox/recurrences/${idRec}/reject`)
  const ended = await staticCode(app, idRec)
  t.equal(ended.statusCode, 409)
  t.match(ended.json(), { code: 'REC_INVALID_TRANSITION', message: /REJEITADA/ })
})

t.test('paid at /__sandbox/pix/pay: a PIX received on the key (GET /pix, /webhook/{chave}), the recurrence APROVADA by JORNADA_4 (/webhookrec); paid again, the PIX alone', async t => {
  const app = await buildTestApp(t)
  const { acc, call, idRec } = await receiver(app)
  t.equal((await call('PUT', `/v2/webhook/${KEY}`, { webhookUrl: 'https://erp.example.com/api/webhook' })).statusCode, 200)
  t.equal((await call('PUT', '/v2/webhookrec', { webhookUrl: 'https://erp.example.com/api/webhookrec' })).statusCode, 200)
  const code = (await staticCode(app, idRec, { chave: KEY })).json().pixCopiaECola

  const noAmount = await payCode(app, code)
  t.equal(noAmount.statusCode, 400, 'a code without an amount needs the payer\'s')
  t.match(noAmount.json(), { code: 'PIX_INVALID_AMOUNT', message: /give amount/ })
  t.match((await call('GET', `/v2/rec/${idRec}`)).json(), { status: 'CRIADA' }, 'a refused payment answers nothing')

  const paid = await payCode(app, code, { amount: 35 })
  t.equal(paid.statusCode, 201, paid.body)
  t.match(paid.json(), { accountId: acc.accountId, status: 'CONFIRMED', amount: 35, txid: CONTRACT })
  t.match(await balanceOf(app, acc.accountId), { available: 35, invariantHolds: true })
  const pix = await call('GET', `/v2/pix/${paid.json().endToEndId}`)
  checkAnswer(t, pix, 'GET', '/pix/{e2eid}')
  t.match(pix.json(), { txid: CONTRACT, valor: '35.00', chave: KEY })
  const listed = await call('GET', '/v2/pix?inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z')
  checkAnswer(t, listed, 'GET', '/pix')
  t.same(listed.json().pix.map((p: { endToEndId: string }) => p.endToEndId), [paid.json().endToEndId])
  const posted = await pixDeliveries(app, acc.accountId)
  t.equal(posted.length, 1)
  t.match(posted[0], { url: 'https://erp.example.com/api/webhook/pix', body: { pix: [pix.json()] } })

  const approved = await checkApproved(t, call, idRec, '00000000')
  t.match(await toldRec(app, idRec), [{ status: 'CRIADA' }, { status: 'APROVADA', ativacao: { tipoJornada: 'JORNADA_4' } }])

  // Paid again: a static code pays as often as the payer likes; the recurrence, no longer CRIADA, stays as it was.
  const again = await payCode(app, code, { amount: 10 })
  t.equal(again.statusCode, 201, again.body)
  t.match(await balanceOf(app, acc.accountId), { available: 45, invariantHolds: true })
  t.same((await call('GET', `/v2/rec/${idRec}`)).json(), approved)
  t.equal((await toldRec(app, idRec)).length, 2)
  t.equal((await pixDeliveries(app, acc.accountId)).length, 2)
})

t.test('paid by a cash-out by QR code of another account: the receiver credited, the recurrence names the payer\'s PSP', async t => {
  const app = await buildTestApp(t)
  const { acc, call, idRec } = await receiver(app)
  const code = (await staticCode(app, idRec, { valor: '35.00' })).json().pixCopiaECola
  const payer = await newAccount(app, { balance: 100 })
  const wrong = await app.inject({ method: 'POST', url: '/api/pix/cash-out-qrcode', headers: bearer(payer.token), payload: { value: 30, qrCode: code, externalId: 'rec-static-0' } })
  t.equal(wrong.statusCode, 400, 'another amount than the code\'s')
  const out = await app.inject({ method: 'POST', url: '/api/pix/cash-out-qrcode', headers: bearer(payer.token), payload: { value: 35, qrCode: code, externalId: 'rec-static-1' } })
  t.equal(out.statusCode, 201, out.body)
  await advance(app, 1000)
  const tx = (await app.inject({ method: 'GET', url: `/__sandbox/transactions/${out.json().transactionId}` })).json()
  t.match(tx, { status: 'CONFIRMED', counterpart: { document: DOCUMENT, accountNumber: String(acc.accountId) } })
  t.match(await balanceOf(app, acc.accountId), { available: 35, invariantHolds: true })
  t.match(await balanceOf(app, payer.accountId), { invariantHolds: true })
  const received = await call('GET', '/v2/pix?inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z')
  t.match(received.json().pix, [{ txid: CONTRACT, valor: '35.00', chave: DOCUMENT }])
  await checkApproved(t, call, idRec, app.sandbox.store.account(payer.accountId)!.ispb)

  // Paid again by the same payer: settled, credited, the recurrence unchanged.
  const second = await app.inject({ method: 'POST', url: '/api/pix/cash-out-qrcode', headers: bearer(payer.token), payload: { value: 35, qrCode: code, externalId: 'rec-static-2' } })
  t.equal(second.statusCode, 201, second.body)
  await advance(app, 1000)
  t.match(await balanceOf(app, acc.accountId), { available: 70, invariantHolds: true })
  t.match((await call('GET', `/v2/rec/${idRec}`)).json(), { status: 'APROVADA', atualizacao: [{ status: 'CRIADA' }, { status: 'APROVADA' }] })
})

t.test('a payer who rejects, or a payer\'s PSP that does (REC_PAYER_PSP_REJECTS): the PIX received, the recurrence REJEITADA', async t => {
  const app = await buildTestApp(t)
  const byPayer = await receiver(app)
  const behaved = await app.inject({ method: 'PUT', url: '/__sandbox/payer-behaviours', payload: { accountId: byPayer.acc.accountId, document: '45164632481', authorization: 'REJECT' } })
  t.equal(behaved.statusCode, 200, behaved.body)
  const code = (await staticCode(app, byPayer.idRec, { valor: '35.00' })).json().pixCopiaECola
  t.equal((await payCode(app, code)).statusCode, 201)
  t.match(await balanceOf(app, byPayer.acc.accountId), { available: 35 })
  const rejected = await byPayer.call('GET', `/v2/rec/${byPayer.idRec}`)
  checkAnswer(t, rejected, 'GET', '/rec/{idRec}')
  t.match(rejected.json(), { status: 'REJEITADA', encerramento: { rejeicao: { codigo: 'AP13' } } })

  const byPsp = await receiver(app, {}, { 'x-sandbox-scenario': 'REC_PAYER_PSP_REJECTS' })
  const pspCode = (await staticCode(app, byPsp.idRec, { valor: '35.00' })).json().pixCopiaECola
  t.equal((await payCode(app, pspCode)).statusCode, 201)
  t.match((await byPsp.call('GET', `/v2/rec/${byPsp.idRec}`)).json(), { status: 'REJEITADA', encerramento: { rejeicao: { codigo: 'AP14' } } })
})
