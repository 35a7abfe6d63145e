import t, { type Test } from 'tap'
import { advance, newAccount, noMtlsCheck } from '../helpers/app.js'
import { apiPixClient, oauthToken, type ApiPixCall } from '../helpers/api-pix.js'
import { enumerations } from '../helpers/enumerations.js'
import { aTxid, receiveIncoming } from '../helpers/payins.js'
import { cobrApp } from '../helpers/recurrences.js'
import type { FastifyInstance } from 'fastify'
import type { Collection } from '../../server/store/state.js'

/**
 * Every list of API Pix reads the account's records through an index (the services' queries by
 * account, shared/bacen-list.ts answering them), and so do the control plane's pages of batches and
 * locations and the next debit of Pix Automático: a request goes through none of the collections, and
 * answers the account's records only (test/helpers/enumerations.ts counts the collections gone through).
 */

const WATCHED: readonly Collection[] = ['transactions', 'cobrs', 'locations', 'recLocations', 'recurrences', 'cobvBatches', 'apiPixWebhooks']
const none = Object.fromEntries(WATCHED.map(c => [c, 0]))
const WINDOW = 'inicio=2026-03-01T00:00:00Z&fim=2026-12-31T00:00:00Z'
const cobv = (txid: string) => ({ txid, calendario: { dataDeVencimento: '2026-03-20' }, devedor: { cpf: '52998224725', nome: 'MARIA' }, valor: { original: '10.00' }, chave: 'recebedor@example.com' })

/** One of each record a list of API Pix shows (a cob, a cobv, a batch of one, a location of each kind, a webhook, a PIX received, a recurring charge), for the account `call` acts for (`n` sets its txids apart). */
async function fill (t: Test, app: FastifyInstance, call: ApiPixCall, accountId: number, n: number, idRec?: string): Promise<void> {
  const ok = async (res: Promise<{ statusCode: number, body: string }>, status: number) => { const r = await res; t.equal(r.statusCode, status, r.body) }
  await noMtlsCheck(app, accountId) // its webhook names an example domain
  await ok(call('PUT', `/v2/cob/${aTxid(n)}`, { calendario: { expiracao: 3600 }, valor: { original: '10.00' }, chave: 'recebedor@example.com' }), 201)
  await ok(call('PUT', `/v2/cobv/${aTxid(n + 1)}`, cobv(aTxid(n + 1))), 201)
  await ok(call('PUT', `/v2/lotecobv/${n}`, { descricao: 'lote', cobsv: [cobv(aTxid(n + 2))] }), 202)
  await ok(call('POST', '/v2/loc', { tipoCob: 'cob' }), 201)
  await ok(call('POST', '/v2/locrec'), 201)
  const document = app.sandbox.store.account(accountId)!.document
  await ok(call('PUT', `/v2/webhook/${document}`, { webhookUrl: 'https://erp.example.com/hook' }), 200)
  await receiveIncoming(app, accountId, 5)
  if (idRec !== undefined) await ok(call('PUT', `/v2/cobr/${aTxid(n + 3)}`, { idRec, calendario: { dataDeVencimento: '2026-03-20' }, valor: { original: '49.90' }, ajusteDiaUtil: true, recebedor: { conta: '012682', tipoConta: 'CORRENTE', agencia: '9708' } }), 201)
}

t.test('every list of API Pix answers the account\'s records through an index, going through no collection', async t => {
  const { app, acc, idRec } = await cobrApp(t)
  const call = apiPixClient(app, await oauthToken(app, acc))
  const theirs = await newAccount(app, { name: 'OUTRA LTDA' })
  const other = apiPixClient(app, await oauthToken(app, theirs))
  await fill(t, app, other, theirs.accountId, 50)
  await fill(t, app, call, acc.accountId, 10, idRec)
  await fill(t, app, other, theirs.accountId, 60)
  // The batches processed: each made its cobv, at a location of its own.
  await advance(app, 60_000)

  const lists: Array<[string, string, number]> = [
    ['/v2/cob', 'cobs', 1],
    ['/v2/cobv', 'cobs', 2],
    ['/v2/lotecobv', 'lotes', 1],
    ['/v2/loc', 'loc', 4],
    ['/v2/locrec', 'loc', 1],
    ['/v2/rec', 'recs', 1],
    ['/v2/cobr', 'cobsr', 1],
    ['/v2/pix', 'pix', 1],
    ['/v2/webhook', 'webhooks', 1],
  ]
  const { counts } = await enumerations(app, WATCHED, async () => {
    for (const [path, items, count] of lists) {
      const res = await call('GET', `${path}?${WINDOW}`)
      t.equal(res.statusCode, 200, `${path}: ${res.body}`)
      t.equal(res.json()[items].length, count, `${path}: the account's own`)
      t.equal(res.json().parametros.paginacao.quantidadeTotalDeItens, count, path)
    }
    t.match((await call('GET', `/v2/cobv?${WINDOW}&loteCobVId=10`)).json(), { parametros: { loteCobVId: 10 }, cobs: [{ txid: aTxid(12) }] }, 'the batch\'s cobv')
    t.match((await call('GET', `/v2/cobr?${WINDOW}&cpf=52998224725`)).json(), { parametros: { cpf: '52998224725' }, cobsr: [{ txid: aTxid(13) }] }, 'the recurrence\'s debtor')
    t.equal((await call('GET', '/v2/cob?inicio=2026-03-11T00:00:00Z&fim=2026-03-10T00:00:00Z')).statusCode, 400, 'a window that ends before it starts')
    // A PIX received: API Pix's notifier asks whether any webhook is configured, and the key's, through the index.
    await receiveIncoming(app, acc.accountId, 7)
  })
  t.same(counts, none, 'no collection gone through')
})

t.test('the control plane pages its batches the last made first, lists an account\'s locations and finds the next debit through indexes', async t => {
  const { app, acc, idRec } = await cobrApp(t)
  const call = apiPixClient(app, await oauthToken(app, acc))
  const theirs = await newAccount(app, { name: 'OUTRA LTDA' })
  const other = apiPixClient(app, await oauthToken(app, theirs))
  await fill(t, app, call, acc.accountId, 10, idRec)
  await fill(t, app, other, theirs.accountId, 50)
  await fill(t, app, call, acc.accountId, 20)
  const page = (query: string) => app.inject({ method: 'GET', url: `/__sandbox/cobv-batches?${query}` }).then(r => r.json())
  const ids = (p: { batches: Array<{ id: number, accountId: number }> }) => p.batches.map(b => `${b.accountId}:${b.id}`)

  const { counts } = await enumerations(app, WATCHED, async () => {
    const first = await page('limit=2')
    t.same(ids(first), [`${acc.accountId}:20`, `${theirs.accountId}:50`], 'the last made first')
    const next = await page(`limit=2&cursor=${first.nextCursor}`)
    t.same(ids(next), [`${acc.accountId}:10`])
    t.equal(next.nextCursor, undefined, 'the last page')
    t.same(ids(await page(`accountId=${acc.accountId}`)), [`${acc.accountId}:20`, `${acc.accountId}:10`])
    t.match((await page(`accountId=${theirs.accountId}`)).batches, [{ id: 50, descricao: 'lote', cobsv: [{ txid: aTxid(52), status: 'EM_PROCESSAMENTO' }] }], 'as GET /lotecobv/{id} shows it')
    const locations = (await app.inject({ method: 'GET', url: `/__sandbox/locations?accountId=${acc.accountId}` })).json().locations as Array<{ accountId: number, tipoCob: string }>
    t.ok(locations.length > 0 && locations.every(l => l.accountId === acc.accountId), 'the account\'s locations')
    t.match(app.sandbox.cobrs.nextDebit(acc.accountId), { accountId: acc.accountId, txid: aTxid(13) })
    t.match(app.sandbox.cobrs.nextDebit(), { txid: aTxid(13) }, 'of every account')
    t.equal(app.sandbox.cobrs.nextDebit(theirs.accountId), null, 'none for an account without recurring charges')
  })
  t.same(counts, none, 'no collection gone through')
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/cobv-batches?limit=0' })).statusCode, 400)

  // An import and an account reset (its records removed): the pages and the next debit follow.
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })).statusCode, 200)
  t.same(ids(await page('')), [`${acc.accountId}:20`, `${theirs.accountId}:50`, `${acc.accountId}:10`], 'the same order after an import')
  t.match(app.sandbox.cobrs.nextDebit(), { txid: aTxid(13) }, 'the next debit after an import')
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/reset', payload: { accountId: acc.accountId } })).statusCode, 200)
  t.same(ids(await page('')), [`${theirs.accountId}:50`], 'the reset account\'s batches leave the pages')
  t.equal(app.sandbox.cobrs.nextDebit(), null, 'and its recurring charges the next debit')
})
