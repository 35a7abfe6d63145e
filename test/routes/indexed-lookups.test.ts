import t from 'tap'
import { advance, buildTestApp, newAccount, T0 } from '../helpers/app.js'
import { apiPixClient, oauthToken } from '../helpers/api-pix.js'
import { enumerations } from '../helpers/enumerations.js'
import { aTxid, createCashIn, payCode, receiveIncoming } from '../helpers/payins.js'
import { advanceTo, cobrApp } from '../helpers/recurrences.js'

/**
 * What a request costs does not grow with the state (docs/api-pix.md, lotecobv and "The payer's
 * side"; the figures are in bench/README.md): naming a batch's txid, creating a recurring charge and
 * a page of the control plane's recurrences look their records up through indexes, going through
 * none of the collections, and answer what a scan answered. Each test counts the collections gone
 * through while its requests run (test/helpers/enumerations.ts) and checks their answers.
 */

const SETTLE = 60_000
const WINDOW = 'inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z'
const cobv = (txid: string) => ({ txid, calendario: { dataDeVencimento: '2026-03-20' }, devedor: { cpf: '52998224725', nome: 'MARIA' }, valor: { original: '10.00' }, chave: 'recebedor@example.com' })
const batchOf = (batch: number, size: number) => ({ descricao: `lote ${batch}`, cobsv: Array.from({ length: size }, (_, i) => cobv(aTxid(batch * 100 + i))) })

t.test('a batch\'s txids are looked up in an index: a new batch, its processing and a cobv go through no batch, and refuse what the batches hold', async t => {
  const { app, acc } = await cobrApp(t)
  const call = apiPixClient(app, await oauthToken(app, acc))
  for (let b = 1; b <= 11; b++) t.equal((await call('PUT', `/v2/lotecobv/${b}`, batchOf(b, 5))).statusCode, 202)
  // Batch 12's first request is refused (due before it was made): the batch holds its txid, NEGADA.
  const twelve = batchOf(12, 5)
  twelve.cobsv[0].calendario.dataDeVencimento = '2026-03-01'
  t.equal((await call('PUT', '/v2/lotecobv/12', twelve)).statusCode, 202)
  await advance(app, SETTLE)

  const { counts } = await enumerations(app, ['cobvBatches'], async () => {
    t.equal((await call('PUT', '/v2/lotecobv/13', batchOf(13, 5))).statusCode, 202)
    await advance(app, SETTLE)
    const made = (await call('GET', '/v2/lotecobv/13')).json()
    t.same(made.cobsv.map((i: { status: string }) => i.status), ['CRIADA', 'CRIADA', 'CRIADA', 'CRIADA', 'CRIADA'], 'the 13th batch made its cobvs')

    const taken = await call('PUT', '/v2/lotecobv/14', { descricao: 'lote 14', cobsv: [cobv(aTxid(1400)), cobv(aTxid(1200))] })
    t.equal(taken.statusCode, 400, 'a txid batch 12 holds')
    t.match(taken.json().detail, 'já pertence ao lote 12')
    const created = await call('PUT', '/v2/lotecobv/14', { descricao: 'lote 14', cobsv: [cobv(aTxid(302))] })
    t.match(created.json().detail, 'já encontra-se criada', 'a txid whose cobv batch 3 made')
    t.equal((await call('PUT', '/v2/lotecobv/14', batchOf(14, 2))).statusCode, 202)
    const negada = await call('PUT', `/v2/cobv/${aTxid(1200)}`, cobv(aTxid(1200)))
    t.equal(negada.statusCode, 400, 'a txid a batch holds NEGADA')
    t.match(negada.json().detail, 'associado ao lote 12')
    const held = await call('PUT', `/v2/cobv/${aTxid(1401)}`, cobv(aTxid(1401)))
    t.equal(held.statusCode, 400, 'a txid a batch holds EM_PROCESSAMENTO')
    t.match(held.json().detail, 'associado ao lote 14')
    const foreign = await call('PATCH', '/v2/lotecobv/14', { cobsv: [{ txid: aTxid(302), valor: { original: '20.00' } }] })
    t.equal(foreign.statusCode, 400, 'a revision of a txid of another batch')
    const revised = await call('PATCH', '/v2/lotecobv/3', { cobsv: [{ txid: aTxid(302), valor: { original: '20.00' } }] })
    t.equal(revised.statusCode, 202, revised.body)
  })
  t.same(counts, { cobvBatches: 0 }, 'no batch gone through')

  // The index is made again from an imported state: batch 12 still holds its txids.
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })).statusCode, 200)
  const again = apiPixClient(app, await oauthToken(app, acc))
  t.match((await again('PUT', '/v2/lotecobv/15', { descricao: 'lote 15', cobsv: [cobv(aTxid(1200))] })).json().detail, 'já pertence ao lote 12')
})

t.test('a recurring charge is checked against its recurrence\'s charges only, through an index', async t => {
  const { app, call, body, recurrence } = await cobrApp(t)
  const other = await recurrence({ vinculo: { contrato: 'CONTRATO-2', devedor: { cpf: '45164632481', nome: 'FULANO' } } })
  for (let m = 4; m <= 9; m++) t.equal((await call('PUT', `/v2/cobr/${aTxid(m)}`, body({ calendario: { dataDeVencimento: `2026-0${m}-20` } }))).statusCode, 201)
  const { counts } = await enumerations(app, ['cobrs'], async () => {
    const sameCycle = await call('PUT', `/v2/cobr/${aTxid(20)}`, body({ calendario: { dataDeVencimento: '2026-05-22' } }))
    t.equal(sameCycle.statusCode, 400, 'a second live charge in May')
    t.ok(sameCycle.json().violacoes.some((v: { razao: string }) => /mesmo ciclo/.test(v.razao)), sameCycle.body)
    t.equal((await call('PUT', `/v2/cobr/${aTxid(21)}`, body({ idRec: other, calendario: { dataDeVencimento: '2026-05-20' } }))).statusCode, 201, 'May of the other recurrence is free')
    t.equal((await call('PUT', `/v2/cobr/${aTxid(22)}`, body({ calendario: { dataDeVencimento: '2026-03-20' } }))).statusCode, 201, 'March of this one too')
  })
  t.same(counts, { cobrs: 0 }, 'no recurring charge gone through')
})

t.test('the control plane pages its recurrences, the last made first; a page goes through no collection', async t => {
  const { app, acc, call, idRec, body, recurrence } = await cobrApp(t)
  const second = await recurrence({ vinculo: { contrato: 'C-2', devedor: { cpf: '45164632481', nome: 'FULANO' } } })
  const theirs = await newAccount(app, { name: 'OUTRA LTDA' })
  const otherCall = apiPixClient(app, await oauthToken(app, theirs))
  const foreign = (await otherCall('POST', '/v2/rec', { vinculo: { contrato: 'X', devedor: { cpf: '52998224725', nome: 'MARIA' } }, calendario: { dataInicial: '2026-04-01', periodicidade: 'MENSAL' }, valor: { valorRec: '10.00' }, politicaRetentativa: 'NAO_PERMITE' })).json().idRec
  const third = await recurrence({ vinculo: { contrato: 'C-3', devedor: { cpf: '45164632481', nome: 'FULANO' } } })
  // A confirmation request of a CRIADA one, shown in its solicitacao.
  const pending = (await call('POST', '/v2/rec', { vinculo: { contrato: 'C-4', devedor: { cpf: '52998224725', nome: 'MARIA' } }, calendario: { dataInicial: '2026-04-01', periodicidade: 'MENSAL' }, valor: { valorRec: '49.90' }, politicaRetentativa: 'NAO_PERMITE' })).json().idRec
  const solic = await call('POST', '/v2/solicrec', { idRec: pending, calendario: { dataExpiracaoSolicitacao: '2026-03-12T15:00:00Z' }, destinatario: { conta: '550689', cpf: '52998224725', ispbParticipante: '91193552' } })
  t.equal(solic.statusCode, 201, solic.body)
  t.equal((await call('PUT', `/v2/cobr/${aTxid(1)}`, body())).statusCode, 201)
  await advanceTo(app, '2026-03-20T11:00:00Z')

  const page = (query: string) => app.inject({ method: 'GET', url: `/__sandbox/recurrences?${query}` }).then(r => r.json())
  const ids = (p: { recurrences: Array<{ idRec: string }> }) => p.recurrences.map(r => r.idRec)
  const { counts } = await enumerations(app, ['recurrences', 'cobrs', 'solicRecs'], async () => {
    const first = await page(`accountId=${acc.accountId}&limit=2`)
    t.same(ids(first), [pending, third])
    t.match(first.recurrences[0], { solicitacao: [{ idSolicRec: solic.json().idSolicRec }], charges: { total: 0 } })
    const next = await page(`accountId=${acc.accountId}&limit=2&cursor=${first.nextCursor}`)
    t.same(ids(next), [second, idRec])
    t.match(next.recurrences[1], { charges: { total: 1, byStatus: { CONCLUIDA: 1 } } })
    t.equal(next.nextCursor, undefined, 'the last page')
    const everyone = await page('limit=3')
    t.same(ids(everyone), [pending, third, foreign], 'every account\'s, the last made first')
    t.same(ids(await page(`limit=3&cursor=${everyone.nextCursor}`)), [second, idRec])
    t.same(ids(await page(`accountId=${theirs.accountId}`)), [foreign])
    t.match((await app.inject({ method: 'GET', url: `/__sandbox/recurrences/${idRec}` })).json(), { cobsr: [{ txid: aTxid(1), status: 'CONCLUIDA' }] })
    t.match((await call('GET', `/v2/rec/${pending}`)).json(), { solicitacao: [{ idSolicRec: solic.json().idSolicRec }] }, 'GET /rec finds its requests through the index too')
  })
  t.same(counts, { recurrences: 0, cobrs: 0, solicRecs: 0 }, 'no collection gone through')
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/recurrences?limit=0' })).statusCode, 400)
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/recurrences?cursor=x' })).statusCode, 400)

  // An import and an account reset (its records removed): the pages follow.
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })).statusCode, 200)
  t.same(ids(await page('')), [pending, third, foreign, second, idRec], 'the same order after an import')
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/reset', payload: { accountId: theirs.accountId } })).statusCode, 200)
  t.same(ids(await page('')), [pending, third, second, idRec], 'the reset account\'s recurrences leave the pages')
  t.same(ids(await page(`accountId=${theirs.accountId}`)), [])
})

t.test('GET /v2/pix reads the PIX the account received from an index, in the order they arrived, through a snapshot import and an account\'s reset', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 })
  const other = await newAccount(app, { balance: 0 })
  let call = apiPixClient(app, await oauthToken(app, acc))
  const cob = async (n: number) => (await call('PUT', `/v2/cob/${aTxid(n)}`, { calendario: { expiracao: 3600 }, valor: { original: '10.00' }, chave: 'recebedor@example.com' })).json().pixCopiaECola as string
  const paid = async (code: string) => {
    const res = await payCode(app, code)
    t.equal(res.statusCode, 201, res.body)
    return res.json().endToEndId as string
  }
  // Made in one order, received in another: cob 1 first made and last paid, in the millisecond a PIX
  // made after it arrives (the same horario: the order they were made).
  const first = await cob(1)
  await advance(app, 1000)
  const second = await cob(2)
  const refused = await createCashIn(app, acc.token, undefined, { 'x-sandbox-scenario': 'PAYMENT_ERROR' })
  await advance(app, 1000)
  const incoming = (await receiveIncoming(app, acc.accountId, 5)).endToEndId
  await receiveIncoming(app, other.accountId, 7)
  await advance(app, 1000)
  const ofSecond = await paid(second)
  await advance(app, 1000)
  t.equal((await payCode(app, refused.pixCode)).statusCode, 201, 'the provider refuses the payment: no PIX received')
  const sameMs = (await receiveIncoming(app, acc.accountId, 6)).endToEndId
  const ofFirst = await paid(first)
  const expected = [incoming, ofSecond, ofFirst, sameMs]

  const list = async (query = WINDOW) => {
    const res = await call('GET', `/v2/pix?${query}`)
    t.equal(res.statusCode, 200, res.body)
    return res.json().pix.map((p: { endToEndId: string }) => p.endToEndId) as string[]
  }
  const at = (s: number) => new Date(Date.parse(T0) + s * 1000).toISOString()
  /** The lists, as none of them goes through the account's transactions. */
  const indexed = async () => {
    const store = app.sandbox.store
    const walk = store.transactionsOf
    let walked = 0
    store.transactionsOf = (accountId: number) => { walked++; return walk.call(store, accountId) }
    try {
      const { result, counts } = await enumerations(app, ['transactions'], async () => ({
        all: await list(),
        // By horario, not by creation: cob 2 was made at T0 + 1 s, paid at T0 + 3 s.
        third: await list(`inicio=${at(3)}&fim=${at(3)}`),
        paged: await list(`${WINDOW}&paginacao.paginaAtual=1&paginacao.itensPorPagina=3`),
      }))
      t.same({ counts, walked }, { counts: { transactions: 0 }, walked: 0 }, 'no transaction gone through')
      return result
    } finally {
      delete (store as unknown as Record<string, unknown>).transactionsOf
    }
  }
  t.same(await indexed(), { all: expected, third: [ofSecond], paged: [sameMs] })

  // An imported state: the lists are built again in the order the PIX arrived, not the order they were made.
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })).statusCode, 200)
  call = apiPixClient(app, await oauthToken(app, acc))
  t.same(await indexed(), { all: expected, third: [ofSecond], paged: [sameMs] }, 'the same after an import')
  await advance(app, 1000)
  const later = (await receiveIncoming(app, acc.accountId, 8)).endToEndId
  t.same(await list(), [...expected, later], 'one received after the import comes last')

  // The account's reset takes its PIX away; what it receives next is all its list holds.
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/reset', payload: { accountId: acc.accountId } })).statusCode, 200)
  call = apiPixClient(app, await oauthToken(app, acc))
  t.same(await list(), [], 'the reset account received nothing')
  const afterReset = (await receiveIncoming(app, acc.accountId, 9)).endToEndId
  t.same(await list(), [afterReset])
})
