import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { advance, aTxid, createCashIn, payCode, receiveIncoming } from '../helpers/payins.js'
import { bearer, buildTestApp, newAccount, tokenFor } from '../helpers/app.js'
import { checkAnswer, oauthToken, PROBLEM_TYPE } from '../helpers/api-pix.js'

/**
 * API Pix's received PIX under /v2 (docs/api-pix.md, pix): GET /pix/{e2eid} and GET /pix, over the
 * PIX the token's account received, in API Pix's `Pix` (txid only where it is one of API Pix), every
 * answer (success or error) validated against BACEN's API Pix 2.9.0; scope pix.read enforced.
 */

const WINDOW = 'inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z'
const cobBody = (valor: string) => ({ calendario: { expiracao: 3600 }, valor: { original: valor }, chave: 'recebedor@example.com' })

function client (app: FastifyInstance, token: string) {
  return (method: 'GET' | 'PUT', url: string, payload?: unknown) =>
    app.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) })
}

/** An account that received three PIX: a paid cob of API Pix, a paid cash-in, and one without a charge. */
async function received (app: FastifyInstance) {
  const acc = await newAccount(app, { balance: 0 })
  const call = client(app, await oauthToken(app, acc))
  const cob = (await call('PUT', `/v2/cob/${aTxid(1)}`, cobBody('12.34'))).json()
  const ofCob = await payCode(app, cob.pixCopiaECola, { payer: { name: 'MARIA DA SILVA', document: '52998224725' } })
  await advance(app, 1000)
  const cashIn = await createCashIn(app, acc.token)
  const ofCashIn = await payCode(app, cashIn.pixCode, { payer: { name: 'JOAO', document: '03742693433' } })
  await advance(app, 1000)
  const incoming = await receiveIncoming(app, acc.accountId, 5, { name: 'EMPRESA', document: '11222333000181' })
  return { acc, call, e2eOfCob: ofCob.json().endToEndId as string, e2eOfCashIn: ofCashIn.json().endToEndId as string, e2eOfIncoming: incoming.endToEndId }
}

t.test('GET /pix/{e2eid}: a paid cob shows its txid, chave and componentesValor; other PIX show no txid', async t => {
  const app = await buildTestApp(t)
  const { call, e2eOfCob, e2eOfCashIn, e2eOfIncoming } = await received(app)
  const ofCob = await call('GET', `/v2/pix/${e2eOfCob}`)
  t.equal(ofCob.statusCode, 200, ofCob.body)
  checkAnswer(t, ofCob, 'GET', '/pix/{e2eid}')
  t.same(ofCob.json(), {
    endToEndId: e2eOfCob,
    txid: aTxid(1),
    valor: '12.34',
    componentesValor: { original: { valor: '12.34' } },
    chave: 'recebedor@example.com',
    horario: '2026-03-10T15:00:00.000Z',
    devolucoes: [],
  })
  for (const e2eid of [e2eOfCashIn, e2eOfIncoming]) {
    const res = await call('GET', `/v2/pix/${e2eid}`)
    checkAnswer(t, res, 'GET', '/pix/{e2eid}')
    t.notOk('txid' in res.json(), 'the gateway\'s 25-character reference is no txid of API Pix')
    t.notOk('chave' in res.json())
  }
  t.equal((await call('GET', `/v2/pix/${e2eOfCashIn}`)).json().valor, '100.00')
  t.equal((await call('GET', `/v2/pix/${e2eOfIncoming}`)).json().valor, '5.00')
  // The gateway keeps its own shape of the same PIX: the cash-in's reference as txid.
  const root = await call('GET', `/pix/${e2eOfCashIn}`)
  t.match(root.json().txid, /^[a-zA-Z0-9]{25}$/)
})

t.test('GET /pix lists the account\'s received PIX with API Pix\'s filters and paging', async t => {
  const app = await buildTestApp(t)
  const { call, e2eOfCob, e2eOfCashIn, e2eOfIncoming } = await received(app)
  const all = await call('GET', `/v2/pix?${WINDOW}`)
  t.equal(all.statusCode, 200, all.body)
  checkAnswer(t, all, 'GET', '/pix')
  t.same(all.json().pix.map((p: { endToEndId: string }) => p.endToEndId), [e2eOfCob, e2eOfCashIn, e2eOfIncoming], 'oldest first')
  t.same(all.json().parametros, { inicio: '2026-03-10T00:00:00Z', fim: '2026-03-11T00:00:00Z', paginacao: { paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: 3 } })

  const filtered: Array<[string, string[]]> = [
    [`txid=${aTxid(1)}`, [e2eOfCob]],
    ['txIdPresente=true', [e2eOfCob]],
    ['txIdPresente=false', [e2eOfCashIn, e2eOfIncoming]],
    ['devolucaoPresente=false', [e2eOfCob, e2eOfCashIn, e2eOfIncoming]],
    ['devolucaoPresente=true', []],
    ['cpf=52998224725', [e2eOfCob]],
    ['cnpj=11222333000181', [e2eOfIncoming]],
    ['paginacao.paginaAtual=1&paginacao.itensPorPagina=2', [e2eOfIncoming]],
  ]
  for (const [query, expected] of filtered) {
    const res = await call('GET', `/v2/pix?${WINDOW}&${query}`)
    checkAnswer(t, res, 'GET', '/pix')
    t.same(res.json().pix.map((p: { endToEndId: string }) => p.endToEndId), expected, query)
  }
  const paged = (await call('GET', `/v2/pix?${WINDOW}&paginacao.paginaAtual=1&paginacao.itensPorPagina=2`)).json()
  t.same(paged.parametros.paginacao, { paginaAtual: 1, itensPorPagina: 2, quantidadeDePaginas: 2, quantidadeTotalDeItens: 3 })
  const echoed = (await call('GET', `/v2/pix?${WINDOW}&txIdPresente=true&devolucaoPresente=false&cpf=52998224725`)).json()
  t.match(echoed.parametros, { txIdPresente: true, devolucaoPresente: false, cpf: '52998224725' })
  t.equal((await call('GET', '/v2/pix?inicio=2026-03-11T00:00:00Z&fim=2026-03-12T00:00:00Z')).json().pix.length, 0, 'outside the window')
})

t.test('only the token\'s account: another account\'s PIX is 404, its list empty; errors in problem details', async t => {
  const app = await buildTestApp(t)
  const { call, e2eOfCob } = await received(app)
  const other = await newAccount(app)
  const otherCall = client(app, await oauthToken(app, other))
  const errors: Array<[ReturnType<typeof call>, string, string, number, string]> = [
    [otherCall('GET', `/v2/pix/${e2eOfCob}`), 'GET', '/pix/{e2eid}', 404, 'PixNaoEncontrado'],
    [call('GET', `/v2/pix/E99999999${'0'.repeat(23)}`), 'GET', '/pix/{e2eid}', 404, 'PixNaoEncontrado'],
    [call('GET', '/v2/pix?inicio=2026-03-10T00:00:00Z'), 'GET', '/pix', 400, 'PixConsultaInvalida'],
    [call('GET', '/v2/pix?inicio=2026-03-11T00:00:00Z&fim=2026-03-10T00:00:00Z'), 'GET', '/pix', 400, 'PixConsultaInvalida'],
    [call('GET', `/v2/pix?${WINDOW}&txid=short`), 'GET', '/pix', 400, 'PixConsultaInvalida'],
    [call('GET', `/v2/pix?${WINDOW}&cpf=52998224725&cnpj=11222333000181`), 'GET', '/pix', 400, 'PixConsultaInvalida'],
    [call('GET', `/v2/pix?${WINDOW}&paginacao.itensPorPagina=0`), 'GET', '/pix', 400, 'PixConsultaInvalida'],
  ]
  for (const [pending, method, path, status, type] of errors) {
    const res = await pending
    t.equal(res.statusCode, status, `${method} ${path}: ${res.body}`)
    t.equal(res.json().type, PROBLEM_TYPE + type, `${method} ${path}`)
    checkAnswer(t, res, method, path)
  }
  t.equal((await otherCall('GET', `/v2/pix?${WINDOW}`)).json().pix.length, 0)

  const cobOnly = client(app, await oauthToken(app, other, 'cob.read'))
  for (const [url, path] of [[`/v2/pix/${e2eOfCob}`, '/pix/{e2eid}'], [`/v2/pix?${WINDOW}`, '/pix']]) {
    const res = await cobOnly('GET', url)
    t.equal(res.statusCode, 403, url)
    t.equal(res.json().type, PROBLEM_TYPE + 'AcessoNegado')
    checkAnswer(t, res, 'GET', path)
  }
})

t.test('GET /pix after a restart with --data: the PIX in the order they arrived, not the order they were made', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'pix-list-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const config = { data: join(dir, 'state.json') }
  const first = await buildTestApp(t, config)
  const acc = await newAccount(first, { balance: 0 })
  const call = client(first, await oauthToken(first, acc))
  const cob = (await call('PUT', `/v2/cob/${aTxid(1)}`, cobBody('12.34'))).json()
  await advance(first, 1000)
  const incoming = await receiveIncoming(first, acc.accountId, 5)
  await advance(first, 1000)
  const ofCob = (await payCode(first, cob.pixCopiaECola)).json().endToEndId as string
  const expected = [incoming.endToEndId, ofCob]
  const lists = async (app: FastifyInstance) => {
    const v2 = await client(app, await oauthToken(app, acc))('GET', `/v2/pix?${WINDOW}`)
    checkAnswer(t, v2, 'GET', '/pix')
    const root = await app.inject({ method: 'GET', url: `/pix?${WINDOW}`, headers: bearer(await tokenFor(app, acc)) })
    t.equal(root.statusCode, 200, root.body)
    return [v2, root].map(res => res.json().pix.map((p: { endToEndId: string }) => p.endToEndId))
  }
  t.same(await lists(first), [expected, expected], 'API Pix\'s and the gateway\'s, by horario')
  await first.close()

  const second = await buildTestApp(t, config)
  t.same(await lists(second), [expected, expected], 'the same after the restart')
})
