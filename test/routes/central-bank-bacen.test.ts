import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { parseBrCode } from '../../server/domain/brcode.js'
import { advance, aTxid, cashInBody, createCashIn, payCode, receiveIncoming } from '../helpers/payins.js'
import { balanceOf, bearer, buildTestApp, newAccount, T0 } from '../helpers/app.js'
import { CORRECTIONS, GATEWAY_DEPARTURES, loadBacen } from '../helpers/bacen.js'

/**
 * The central-bank family against BACEN's API Pix 2.9.0 (test/reference, a copy of BACEN's file):
 * every answer of a route BACEN defines validates against BACEN's schema for it, with the
 * reference's known defects corrected (test/helpers/bacen.ts lists each), and the reads and writes
 * BACEN's clients call (POST /cob, GET /cob, PATCH /cob/{txid}, GET /pix/{e2eid}, GET /pix) behave
 * as BACEN describes them, per account, in the gateway's simple error shape.
 */

const bacen = loadBacen()
const SIMPLE_KEYS = ['error', 'message', 'statusCode']
const cobBody = (over: Record<string, unknown> = {}) => ({ calendario: { expiracao: 3600 }, valor: { original: '10.00' }, ...over })

t.test('the corrections of the reference are exactly the ones listed, and each was needed', async t => {
  t.same([...bacen.applied].sort(), [...CORRECTIONS].sort())
  t.same(bacen.departures, [...GATEWAY_DEPARTURES])
  // The defects as the reference has them: a CPF cannot match the slashed pattern, a 25-character txid fails TxId once anchored.
  t.notOk(/\/^\d{11}$\//.test('52998224725'))
})

/** Every answer the test sees, with the BACEN operation it belongs to. */
interface Seen { method: string, bacenPath: string, status: number, body: unknown }

function recorder (app: FastifyInstance, token: string) {
  const seen: Seen[] = []
  const call = async (method: 'GET' | 'PUT' | 'POST' | 'PATCH', url: string, bacenPath: string, payload?: unknown) => {
    const res = await app.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) })
    if (res.statusCode < 300) seen.push({ method, bacenPath, status: res.statusCode, body: res.json() })
    return res
  }
  return { seen, call }
}

t.test('every answer of every central-bank route BACEN defines validates against BACEN 2.9.0', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 50, name: 'LOJA RECEBEDORA LTDA' })
  const { seen, call } = recorder(app, acc.token)

  const txid = aTxid(1)
  t.equal((await call('PUT', `/cob/${txid}`, '/cob/{txid}', cobBody({ devedor: { cpf: '52998224725', nome: 'MARIA' }, chave: 'recebedor@example.com', infoAdicionais: [{ nome: 'pedido', valor: '42' }] }))).statusCode, 201)
  const generated = await call('POST', '/cob', '/cob', cobBody({ devedor: { cnpj: '11222333000181', nome: 'EMPRESA' } }))
  t.equal(generated.statusCode, 201)
  t.equal((await call('PATCH', `/cob/${txid}`, '/cob/{txid}', { valor: { original: '12.50' }, solicitacaoPagador: 'pague até sexta' })).statusCode, 200)
  const cob = (await call('GET', `/cob/${txid}`, '/cob/{txid}')).json()
  t.equal((await payCode(app, cob.pixCopiaECola, { payer: { name: 'JOAO', document: '52998224725' } })).statusCode, 201)
  const paid = (await call('GET', `/cob/${txid}`, '/cob/{txid}')).json()
  const e2e = paid.pix[0].endToEndId
  t.equal((await call('PUT', `/pix/${e2e}/devolucao/d1`, '/pix/{e2eid}/devolucao/{id}', { valor: '2.50' })).statusCode, 201)
  await advance(app, 1000)
  t.equal((await call('GET', `/pix/${e2e}/devolucao/d1`, '/pix/{e2eid}/devolucao/{id}')).statusCode, 200)
  // A paid cash-in (a 25-character txid) and a PIX without any charge (no txid) are received PIX too.
  const cashIn = await createCashIn(app, acc.token, cashInBody({ value: 3 }))
  await payCode(app, cashIn.pixCode)
  const incoming = await receiveIncoming(app, acc.accountId, 4, { name: 'EMPRESA PAGADORA', document: '11222333000181' })
  t.equal((await call('GET', `/pix/${e2e}`, '/pix/{e2eid}')).statusCode, 200)
  t.equal((await call('GET', `/pix/${incoming.endToEndId}`, '/pix/{e2eid}')).statusCode, 200)
  const window = 'inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z'
  const cobs = await call('GET', `/cob?${window}`, '/cob')
  t.equal(cobs.json().cobs.length, 2)
  const pix = await call('GET', `/pix?${window}`, '/pix')
  t.equal(pix.json().pix.length, 3)
  t.equal((await call('PATCH', `/cob/${generated.json().txid}`, '/cob/{txid}', { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })).statusCode, 200)

  // Every BACEN operation the family serves was seen, and every answer validates.
  const served = new Set(seen.map(s => `${s.method} ${s.bacenPath}`))
  t.same([...served].sort(), ['GET /cob', 'GET /cob/{txid}', 'GET /pix', 'GET /pix/{e2eid}', 'GET /pix/{e2eid}/devolucao/{id}', 'PATCH /cob/{txid}', 'POST /cob', 'PUT /cob/{txid}', 'PUT /pix/{e2eid}/devolucao/{id}'])
  for (const s of seen) {
    const validate = bacen.validatorFor(s.method, s.bacenPath, s.status)
    t.ok(validate(s.body), `${s.method} ${s.bacenPath} ${s.status}: ${JSON.stringify(validate.errors ?? [])}`)
  }
})

t.test('POST /cob: BACEN\'s creation with a txid the sandbox chooses (32 alphanumerics), unique, readable by it', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const first = await app.inject({ method: 'POST', url: '/cob', headers: bearer(acc.token), payload: cobBody() })
  const second = await app.inject({ method: 'POST', url: '/cob', headers: bearer(acc.token), payload: cobBody() })
  t.equal(first.statusCode, 201)
  t.match(first.json(), { txid: /^[a-zA-Z0-9]{32}$/, revisao: 0, status: 'ATIVA', valor: { original: '10.00' }, calendario: { criacao: T0, expiracao: 3600 } })
  t.not(first.json().txid, second.json().txid)
  t.equal((await app.inject({ method: 'GET', url: `/cob/${first.json().txid}`, headers: bearer(acc.token) })).json().txid, first.json().txid)
  const account = (await app.inject({ method: 'GET', url: `/__sandbox/accounts/${acc.accountId}` })).json()
  t.equal(first.json().chave, account.document, 'without chave, the account\'s document key')
  const bad = await app.inject({ method: 'POST', url: '/cob', headers: bearer(acc.token), payload: cobBody({ valor: { original: '10' } }) })
  t.equal(bad.statusCode, 400)
  t.same(Object.keys(bad.json()).sort(), SIMPLE_KEYS)
  t.equal(app.sandbox.store.transactionsOf(acc.accountId).length, 2, 'a refused creation creates nothing')
  t.equal((await app.inject({ method: 'POST', url: '/cob', payload: cobBody() })).statusCode, 401)
})

t.test('PATCH /cob/{txid} revises the value for real: new amount, revisao + 1, the same code paying it; the old amount no longer pays', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 })
  const txid = aTxid(2)
  const created = (await app.inject({ method: 'PUT', url: `/cob/${txid}`, headers: bearer(acc.token), payload: cobBody() })).json()
  const patched = await app.inject({ method: 'PATCH', url: `/cob/${txid}`, headers: bearer(acc.token), payload: { valor: { original: '25.90' } } })
  t.equal(patched.statusCode, 200, patched.body)
  const revised = patched.json()
  t.match(revised, { revisao: 1, status: 'ATIVA', valor: { original: '25.90', modalidadeAlteracao: 0 } })
  const code = parseBrCode(revised.pixCopiaECola)
  t.ok(code.ok && code.value.amountCents === undefined, 'the BR Code carries no amount')
  t.equal(revised.pixCopiaECola, created.pixCopiaECola, 'the same code, at the same location')
  t.equal((await payCode(app, created.pixCopiaECola, { amount: 10 })).statusCode, 400, 'the old amount is refused')
  const paid = await payCode(app, created.pixCopiaECola)
  t.equal(paid.statusCode, 201)
  t.equal(paid.json().amount, 25.9)
  t.same(await balanceOf(app, acc.accountId), { available: 25.9, blocked: 0, invariantHolds: true })
  // status plus valor: one revision, and the value changes too.
  const other = aTxid(3)
  await app.inject({ method: 'PUT', url: `/cob/${other}`, headers: bearer(acc.token), payload: cobBody() })
  const both = (await app.inject({ method: 'PATCH', url: `/cob/${other}`, headers: bearer(acc.token), payload: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', valor: { original: '11.00' } } })).json()
  t.match(both, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR', revisao: 1, valor: { original: '11.00' } })
})

t.test('PATCH /cob/{txid}: every field BACEN allows; revisao moves only on a real change', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const txid = aTxid(4)
  const patch = (payload: unknown) => app.inject({ method: 'PATCH', url: `/cob/${txid}`, headers: bearer(acc.token), payload: payload as object })
  await app.inject({ method: 'PUT', url: `/cob/${txid}`, headers: bearer(acc.token), payload: cobBody({ calendario: { expiracao: 600 }, chave: 'recebedor@example.com' }) })

  t.equal((await patch({ valor: { original: '10.00' }, chave: 'recebedor@example.com' })).json().revisao, 0, 'the same values: no revision')
  t.equal((await patch({})).json().revisao, 0, 'nothing to change: no revision')
  const revised = (await patch({
    calendario: { expiracao: 1200 },
    devedor: { cnpj: '11222333000181', nome: 'EMPRESA' },
    valor: { modalidadeAlteracao: 1 },
    chave: '+5511999998888',
    solicitacaoPagador: 'informe o pedido',
    infoAdicionais: [{ nome: 'pedido', valor: '77' }],
    loc: { id: (await app.inject({ method: 'GET', url: `/cob/${txid}`, headers: bearer(acc.token) })).json().loc.id },
  })).json()
  t.match(revised, {
    revisao: 1,
    calendario: { criacao: T0, expiracao: 1200 },
    devedor: { cnpj: '11222333000181', nome: 'EMPRESA' },
    valor: { original: '10.00', modalidadeAlteracao: 1 },
    chave: '+5511999998888',
    solicitacaoPagador: 'informe o pedido',
    infoAdicionais: [{ nome: 'pedido', valor: '77' }],
  })
  t.notOk('cpf' in revised.devedor, 'the devedor is replaced whole')
  const code = parseBrCode(revised.pixCopiaECola)
  t.ok(code.ok && code.value.amountCents === undefined, 'modalidadeAlteracao 1: the code carries no amount')
  t.equal((await patch({ solicitacaoPagador: 'informe o pedido' })).json().revisao, 1, 'a repeat is no revision')
  t.equal((await patch({ solicitacaoPagador: 'outro texto' })).json().revisao, 2)

  // expiracao counts from criacao: 1200 s keeps it open past the first 600; a shorter one already past expires it now.
  await advance(app, 600_000 + 1)
  t.equal((await app.inject({ method: 'GET', url: `/cob/${txid}`, headers: bearer(acc.token) })).json().status, 'ATIVA')
  const expired = await patch({ calendario: { expiracao: 60 } })
  t.match(expired.json(), { status: 'REMOVIDA_PELO_PSP', revisao: 3 })
  t.equal((await patch({ solicitacaoPagador: 'tarde demais' })).statusCode, 409, 'only an ATIVA charge is revised')
})

t.test('PATCH /cob/{txid} errors: bad fields 400 (one message each, nothing changed), unknown 404, another location 400', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const other = await newAccount(app)
  const txid = aTxid(5)
  await app.inject({ method: 'PUT', url: `/cob/${txid}`, headers: bearer(acc.token), payload: cobBody() })
  const bad = await app.inject({ method: 'PATCH', url: `/cob/${txid}`, headers: bearer(acc.token), payload: { valor: { original: '1,00' }, devedor: { cpf: '52998224724', nome: 'X' }, chave: 'não é chave' } })
  t.equal(bad.statusCode, 400)
  t.same(Object.keys(bad.json()).sort(), SIMPLE_KEYS)
  t.match(bad.json().message, /valor\.original.*devedor\.cpf.*chave/)
  const read = (await app.inject({ method: 'GET', url: `/cob/${txid}`, headers: bearer(acc.token) })).json()
  t.match(read, { revisao: 0, valor: { original: '10.00' } }, 'nothing changed')
  t.equal((await app.inject({ method: 'PATCH', url: `/cob/${txid}`, headers: bearer(acc.token), payload: { loc: { id: read.loc.id + 100 } } })).statusCode, 400)
  t.equal((await app.inject({ method: 'PATCH', url: `/cob/${txid}`, headers: bearer(acc.token), payload: { status: 'ATIVA' } })).statusCode, 400)
  t.equal((await app.inject({ method: 'PATCH', url: `/cob/${txid}`, headers: bearer(other.token), payload: { solicitacaoPagador: 'x' } })).statusCode, 404, 'another account\'s charge')
  t.equal((await app.inject({ method: 'PATCH', url: `/cob/${aTxid(99)}`, headers: bearer(acc.token), payload: { solicitacaoPagador: 'x' } })).statusCode, 404)
})

t.test('GET /cob: inicio and fim inclusive, filters cpf, cnpj, status, locationPresente, paging in parametros.paginacao, per account', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const other = await newAccount(app)
  const put = (n: number, over: Record<string, unknown> = {}, token = acc.token) =>
    app.inject({ method: 'PUT', url: `/cob/${aTxid(n)}`, headers: bearer(token), payload: cobBody(over) })
  await put(1, { devedor: { cpf: '52998224725', nome: 'MARIA' } })
  await advance(app, 60_000)
  await put(2, { devedor: { cnpj: '11222333000181', nome: 'EMPRESA' } })
  await advance(app, 60_000)
  await put(3)
  await app.inject({ method: 'PATCH', url: `/cob/${aTxid(3)}`, headers: bearer(acc.token), payload: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } })
  await put(4, {}, other.token)
  const list = async (query: string) => app.inject({ method: 'GET', url: `/cob?${query}`, headers: bearer(acc.token) })
  const day = 'inicio=2026-03-10T00:00:00Z&fim=2026-03-10T23:59:59Z'
  const txids = async (query: string) => (await list(query)).json().cobs.map((c: { txid: string }) => c.txid)

  const all = (await list(day)).json()
  t.same(all.cobs.map((c: { txid: string }) => c.txid), [aTxid(1), aTxid(2), aTxid(3)], 'oldest first; another account\'s charge is not listed')
  t.same(all.parametros, { inicio: '2026-03-10T00:00:00Z', fim: '2026-03-10T23:59:59Z', paginacao: { paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: 3 } })
  t.same(await txids('inicio=2026-03-10T15:01:00Z&fim=2026-03-10T15:01:00Z'), [aTxid(2)], 'both bounds inclusive')
  t.same(await txids('inicio=2026-03-10T12:01:00-03:00&fim=2026-03-10T12:01:59-03:00'), [aTxid(2)], 'offsets are read')
  t.same(await txids(`${day}&cpf=52998224725`), [aTxid(1)])
  t.same(await txids(`${day}&cnpj=11222333000181`), [aTxid(2)])
  t.same(await txids(`${day}&status=REMOVIDA_PELO_USUARIO_RECEBEDOR`), [aTxid(3)])
  t.same(await txids(`${day}&locationPresente=false`), [], 'every cob here has its location')
  const paged = (await list(`${day}&paginacao.paginaAtual=1&paginacao.itensPorPagina=2`)).json()
  t.same(paged.cobs.map((c: { txid: string }) => c.txid), [aTxid(3)])
  t.same(paged.parametros.paginacao, { paginaAtual: 1, itensPorPagina: 2, quantidadeDePaginas: 2, quantidadeTotalDeItens: 3 })
  t.same((await list('inicio=2027-01-01T00:00:00Z&fim=2027-01-02T00:00:00Z')).json().parametros.paginacao, { paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: 0 })

  for (const [query, pattern] of [
    ['fim=2026-03-10T23:59:59Z', /inicio/],
    [`${day}&cpf=52998224725&cnpj=11222333000181`, /cpf e cnpj/],
    ['inicio=2026-03-11T00:00:00Z&fim=2026-03-10T00:00:00Z', /fim deve ser igual ou posterior a inicio/],
    ['inicio=2026-02-30T00:00:00Z&fim=2026-03-10T00:00:00Z', /inicio deve ser uma data-hora RFC 3339/],
    ['inicio=2026-03-10&fim=2026-03-11T00:00:00Z', /inicio deve ser uma data-hora RFC 3339/],
    [`${day}&status=PAGA`, /status/],
    [`${day}&cpf=123`, /cpf/],
    [`${day}&paginacao.itensPorPagina=0`, /paginacao\.itensPorPagina/],
    [`${day}&paginacao.itensPorPagina=1001`, /paginacao\.itensPorPagina/],
    [`${day}&paginacao.paginaAtual=-1`, /paginacao\.paginaAtual/],
  ] as const) {
    const res = await list(query)
    t.equal(res.statusCode, 400, query)
    t.same(Object.keys(res.json()).sort(), SIMPLE_KEYS, query)
    t.match(res.json().message, pattern, query)
  }
  t.equal((await app.inject({ method: 'GET', url: `/cob?${day}` })).statusCode, 401)
})

t.test('GET /pix/{e2eid} and GET /pix: the PIX the account received, with filters, paging and its devoluções', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 100 })
  const other = await newAccount(app)
  await app.inject({ method: 'PUT', url: `/cob/${aTxid(1)}`, headers: bearer(acc.token), payload: cobBody() })
  const cob = (await app.inject({ method: 'GET', url: `/cob/${aTxid(1)}`, headers: bearer(acc.token) })).json()
  const byCob = (await payCode(app, cob.pixCopiaECola, { payer: { name: 'MARIA', document: '52998224725' } })).json()
  await advance(app, 60_000)
  const incoming = await receiveIncoming(app, acc.accountId, 7.5, { name: 'EMPRESA', document: '11222333000181' })
  await advance(app, 60_000)
  const cashIn = await createCashIn(app, acc.token, cashInBody({ value: 3 }))
  const byCashIn = (await payCode(app, cashIn.pixCode)).json()
  await app.inject({ method: 'PUT', url: `/pix/${byCob.endToEndId}/devolucao/r1`, headers: bearer(acc.token), payload: { valor: '1.00' } })
  const foreign = await receiveIncoming(app, other.accountId, 1)

  const one = await app.inject({ method: 'GET', url: `/pix/${byCob.endToEndId}`, headers: bearer(acc.token) })
  t.equal(one.statusCode, 200)
  t.match(one.json(), { endToEndId: byCob.endToEndId, txid: aTxid(1), valor: '10.00', horario: T0, pagador: { nome: 'MARIA', cpf: '52998224725' }, devolucoes: [{ id: 'r1', valor: '1.00' }] })
  const plain = (await app.inject({ method: 'GET', url: `/pix/${incoming.endToEndId}`, headers: bearer(acc.token) })).json()
  t.notOk('txid' in plain, 'a PIX without a charge has no txid')
  t.match(plain.pagador, { cnpj: '11222333000181' })
  for (const [e2e, token, why] of [[foreign.endToEndId, acc.token, 'another account\'s PIX'], ['E00000000202603101500aaaaaaaaaaa', acc.token, 'unknown']] as const) {
    const res = await app.inject({ method: 'GET', url: `/pix/${e2e}`, headers: bearer(token) })
    t.equal(res.statusCode, 404, why)
    t.same(Object.keys(res.json()).sort(), SIMPLE_KEYS)
  }
  t.equal((await app.inject({ method: 'GET', url: '/pix/short', headers: bearer(acc.token) })).statusCode, 400)

  const day = 'inicio=2026-03-10T00:00:00Z&fim=2026-03-10T23:59:59Z'
  const e2es = async (query: string) => (await app.inject({ method: 'GET', url: `/pix?${query}`, headers: bearer(acc.token) })).json().pix.map((p: { endToEndId: string }) => p.endToEndId)
  t.same(await e2es(day), [byCob.endToEndId, incoming.endToEndId, byCashIn.endToEndId], 'by horario, oldest first; only this account\'s')
  t.same(await e2es(`${day}&txid=${aTxid(1)}`), [byCob.endToEndId])
  t.same(await e2es(`${day}&txIdPresente=false`), [incoming.endToEndId])
  t.same(await e2es(`${day}&txIdPresente=true`), [byCob.endToEndId, byCashIn.endToEndId])
  t.same(await e2es(`${day}&devolucaoPresente=true`), [byCob.endToEndId])
  t.same(await e2es(`${day}&devolucaoPresente=false`), [incoming.endToEndId, byCashIn.endToEndId])
  t.same(await e2es(`${day}&cpf=52998224725`), [byCob.endToEndId, byCashIn.endToEndId])
  t.same(await e2es(`${day}&cnpj=11222333000181`), [incoming.endToEndId])
  t.same(await e2es('inicio=2026-03-10T15:01:00Z&fim=2026-03-10T15:01:00Z'), [incoming.endToEndId])
  const paged = (await app.inject({ method: 'GET', url: `/pix?${day}&paginacao.paginaAtual=2&paginacao.itensPorPagina=1`, headers: bearer(acc.token) })).json()
  t.same(paged.pix.map((p: { endToEndId: string }) => p.endToEndId), [byCashIn.endToEndId])
  t.same(paged.parametros, { inicio: '2026-03-10T00:00:00Z', fim: '2026-03-10T23:59:59Z', paginacao: { paginaAtual: 2, itensPorPagina: 1, quantidadeDePaginas: 3, quantidadeTotalDeItens: 3 } })
  for (const query of ['inicio=2026-03-10T00:00:00Z', `${day}&txid=${'a'.repeat(36)}`, `${day}&cpf=1&cnpj=2`, `${day}&cpf=52998224725&cnpj=11222333000181`, `${day}&txIdPresente=talvez`]) {
    const res = await app.inject({ method: 'GET', url: `/pix?${query}`, headers: bearer(acc.token) })
    t.equal(res.statusCode, 400, query)
    t.same(Object.keys(res.json()).sort(), SIMPLE_KEYS, query)
  }
  t.equal((await app.inject({ method: 'GET', url: `/pix?${day}` })).statusCode, 401)
})
