import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { advance, bearer, buildTestApp, newAccount } from '../helpers/app.js'
import { oauthToken } from '../helpers/api-pix.js'
import { startReceiver } from '../helpers/receiver.js'

/**
 * Efí's webhook resend (docs/efi.md, Webhook resend): POST /v2/gn/webhook/reenviar attempts the last
 * callback of each PIX named once more, to a real receiver; a PIX it cannot resend refuses the whole
 * request and sends nothing.
 */

const DOC = '11222333000181'
const KEY = 'loja@example.com'
const DAY = 86_400_000

async function setUp (t: Test, app: FastifyInstance) {
  const receiver = await startReceiver()
  t.teardown(() => receiver.close())
  const acc = await newAccount(app, { document: DOC, balance: 100, fee: 0 })
  const { ispb } = (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json()
  await app.inject({ method: 'PUT', url: `/__sandbox/directory/${KEY}`, payload: { name: 'LOJA', document: DOC, ispb, bankName: 'SANDBOX' } })
  await app.inject({ method: 'PUT', url: '/__sandbox/directory/fav@example.com', payload: { name: 'FAV', document: '52998224725', ispb: '60701190', bankName: 'ITAU' } })
  const token = await oauthToken(app, acc)
  const call = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: unknown) => app.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) })
  const put = await call('PUT', `/v2/webhook/${KEY}`, { webhookUrl: receiver.url })
  if (put.statusCode !== 200) throw new Error(put.body)
  // A PIX sent from the key, and one received on it (a cob paid), each announced to its webhook.
  const sent = (await call('PUT', '/v3/gn/pix/r1', { valor: '3.00', pagador: { chave: KEY }, favorecido: { chave: 'fav@example.com' } })).json()
  const cob = (await call('POST', '/v2/cob', { calendario: { expiracao: 3600 }, valor: { original: '7.00' }, chave: KEY })).json()
  const paid = (await app.inject({ method: 'POST', url: '/__sandbox/pix/pay', payload: { pixCode: cob.pixCopiaECola } })).json()
  await advance(app, 1000)
  await receiver.nth(2)
  return { acc, call, receiver, sentE2e: sent.e2eId as string, receivedE2e: paid.endToEndId as string }
}

t.test('PIX_ENVIADO and PIX_RECEBIDO: 202, and the receiver gets each callback once more', async t => {
  const app = await buildTestApp(t)
  const { call, receiver, sentE2e, receivedE2e } = await setUp(t, app)
  t.equal(receiver.requests.length, 2, 'each callback once')

  const res = await call('POST', '/v2/gn/webhook/reenviar', { tipo: 'PIX_ENVIADO', e2eids: [sentE2e] })
  t.equal(res.statusCode, 202, res.body)
  t.equal(res.body, '')
  t.match((await receiver.nth(3)).json(), { pix: [{ endToEndId: sentE2e, tipo: 'SOLICITACAO', status: 'REALIZADO', gnExtras: { idEnvio: 'r1' } }] }, 'the same callback')

  t.equal((await call('POST', '/v2/gn/webhook/reenviar', { tipo: 'PIX_RECEBIDO', e2eids: [receivedE2e] })).statusCode, 202)
  t.match((await receiver.nth(4)).json(), { pix: [{ endToEndId: receivedE2e, valor: '7.00', chave: KEY }] })
})

t.test('a PIX it cannot resend refuses the whole request, and nothing is sent', async t => {
  const app = await buildTestApp(t)
  const { acc, call, receiver, sentE2e, receivedE2e } = await setUp(t, app)
  const refused = async (body: unknown, razao: RegExp) => {
    const res = await call('POST', '/v2/gn/webhook/reenviar', body)
    t.equal(res.statusCode, 400, res.body)
    t.match(res.json(), { type: 'https://pix.bcb.gov.br/api/v2/error/WebhookOperacaoInvalida', status: 400, violacoes: [{ razao, propriedade: 'body.e2eids' }] })
  }
  await refused({ tipo: 'PIX_ENVIADO', e2eids: [receivedE2e] }, /não é de um Pix enviado/)
  await refused({ tipo: 'PIX_RECEBIDO', e2eids: [receivedE2e, `E${'0'.repeat(31)}`] }, /E0{31}/)
  await refused({ tipo: 'DEVOLUCAO_RECEBIDA', e2eids: [sentE2e] }, /Nenhum webhook DEVOLUCAO_RECEBIDA/)
  await refused({ tipo: 'OUTRO', e2eids: [sentE2e] }, /tipo/)
  await refused({ tipo: 'PIX_ENVIADO', e2eids: [] }, /e2eids/)
  const other = await newAccount(app, {})
  const foreign = await app.inject({ method: 'POST', url: '/v2/gn/webhook/reenviar', headers: bearer(await oauthToken(app, other)), payload: { tipo: 'PIX_ENVIADO', e2eids: [sentE2e] } })
  t.equal(foreign.statusCode, 400, 'another account\'s PIX')
  // A resend that is taken: the next callback the receiver gets is that one, so none of the refused ones went out.
  t.equal((await call('POST', '/v2/gn/webhook/reenviar', { tipo: 'PIX_RECEBIDO', e2eids: [receivedE2e] })).statusCode, 202)
  t.match((await receiver.nth(3)).json(), { pix: [{ endToEndId: receivedE2e }] }, 'nothing refused was sent')

  await advance(app, 31 * DAY)
  const late = await app.inject({ method: 'POST', url: '/v2/gn/webhook/reenviar', headers: bearer(await oauthToken(app, acc)), payload: { tipo: 'PIX_ENVIADO', e2eids: [sentE2e] } })
  t.equal(late.statusCode, 400)
  t.match(late.json(), { violacoes: [{ razao: /30 dias/ }] })
})
