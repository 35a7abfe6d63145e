import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../../server/app.js'
import { aTxid } from '../helpers/payins.js'
import { advance, buildTestApp, newAccount, T0 } from '../helpers/app.js'
import { apiPixClient as client, checkAnswer, checkProblems, oauthToken, PROBLEM_TYPE } from '../helpers/api-pix.js'

/**
 * API Pix's batches of due charges under /v2 (docs/api-pix.md, lotecobv): PUT and PATCH answer 202
 * at once, each request of the batch is EM_PROCESSAMENTO until the sandbox processes it (the
 * settlement delay of sandbox time later), then CRIADA, or NEGADA with the problem PUT or PATCH
 * /cobv/{txid} would have answered; every answer validated against BACEN's API Pix 2.9.0.
 */

const SETTLE = 50
const WINDOW = 'inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z'
const item = (n: number, over: Record<string, unknown> = {}) => ({
  txid: aTxid(n),
  calendario: { dataDeVencimento: '2026-03-20' },
  devedor: { cpf: '52998224725', nome: 'MARIA' },
  valor: { original: `${n}0.00` },
  chave: 'recebedor@example.com',
  ...over,
})

t.test('every answer of lotecobv validates: a batch accepted, processed request by request, read and listed; and the errors', async t => {
  const app = await buildTestApp(t)
  const call = client(app, await oauthToken(app))
  const put = await call('PUT', '/v2/lotecobv/1', { descricao: 'Cobranças dos alunos de março', cobsv: [item(1), item(2, { calendario: { dataDeVencimento: '2026-03-01' } }), item(3)] })
  t.equal(put.statusCode, 202, put.body)
  t.equal(put.body, '')
  checkAnswer(t, put, 'PUT', '/lotecobv/{id}')

  const waiting = await call('GET', '/v2/lotecobv/1')
  checkAnswer(t, waiting, 'GET', '/lotecobv/{id}')
  t.same(waiting.json(), {
    id: 1,
    descricao: 'Cobranças dos alunos de março',
    criacao: T0,
    cobsv: [1, 2, 3].map(n => ({ txid: aTxid(n), status: 'EM_PROCESSAMENTO' })),
  })
  t.equal((await call('GET', `/v2/cobv/${aTxid(1)}`)).statusCode, 404, 'a request EM_PROCESSAMENTO is no charge yet')

  await advance(app, SETTLE)
  const processed = await call('GET', '/v2/lotecobv/1')
  checkAnswer(t, processed, 'GET', '/lotecobv/{id}')
  const [first, refused, third] = processed.json().cobsv
  t.match(first, { txid: aTxid(1), status: 'CRIADA', criacao: '2026-03-10T15:00:00.050Z' })
  t.match(third, { txid: aTxid(3), status: 'CRIADA' })
  t.match(refused, {
    txid: aTxid(2),
    status: 'NEGADA',
    problema: { type: `${PROBLEM_TYPE}CobVOperacaoInvalida`, status: 400, violacoes: [{ propriedade: 'cobv.calendario.dataDeVencimento' }] },
  })
  t.notOk('problema' in first)
  const cobv = await call('GET', `/v2/cobv/${aTxid(1)}`)
  checkAnswer(t, cobv, 'GET', '/cobv/{txid}')
  t.match(cobv.json(), { status: 'ATIVA', valor: { original: '10.00' }, loc: { tipoCob: 'cobv' } })
  t.equal((await call('GET', `/v2/cobv/${aTxid(2)}`)).statusCode, 404, 'a refused request is no charge')
  const ofBatch = await call('GET', `/v2/cobv?${WINDOW}&loteCobVId=1`)
  checkAnswer(t, ofBatch, 'GET', '/cobv')
  t.same(ofBatch.json().cobs.map((c: { txid: string }) => c.txid), [aTxid(1), aTxid(3)])
  t.equal(ofBatch.json().parametros.loteCobVId, 1)

  await call('PUT', '/v2/lotecobv/2', { descricao: 'segundo', cobsv: [item(4)] })
  const list = await call('GET', `/v2/lotecobv?${WINDOW}`)
  checkAnswer(t, list, 'GET', '/lotecobv')
  t.same(list.json().lotes.map((l: { id: number }) => l.id), [1, 2])
  t.same(list.json().parametros.paginacao, { paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: 2 })
  const paged = await call('GET', `/v2/lotecobv?${WINDOW}&paginacao.itensPorPagina=1&paginacao.paginaAtual=1`)
  t.same(paged.json().lotes.map((l: { id: number }) => l.id), [2])
  await call('PUT', `/v2/cobv/${aTxid(9)}`, { calendario: { dataDeVencimento: '2026-03-20' }, devedor: { cpf: '52998224725', nome: 'MARIA' }, valor: { original: '1.00' }, chave: 'recebedor@example.com' })

  await checkProblems(t, [
    [call('PUT', '/v2/lotecobv/3', { descricao: 'x', cobsv: [item(5), item(5)] }), 'PUT', '/lotecobv/{id}', 400, 'LoteCobVOperacaoInvalida'],
    [call('PUT', '/v2/lotecobv/3', { descricao: 'x', cobsv: [item(9)] }), 'PUT', '/lotecobv/{id}', 400, 'LoteCobVOperacaoInvalida'],
    [call('PUT', '/v2/lotecobv/3', { descricao: 'x', cobsv: [item(1)] }), 'PUT', '/lotecobv/{id}', 400, 'LoteCobVOperacaoInvalida'],
    [call('PUT', '/v2/lotecobv/1', { descricao: 'x', cobsv: [item(1), item(2)] }), 'PUT', '/lotecobv/{id}', 400, 'LoteCobVOperacaoInvalida'],
    [call('PUT', '/v2/lotecobv/3', { descricao: 'x' }), 'PUT', '/lotecobv/{id}', 400, 'LoteCobVOperacaoInvalida'],
    [call('PUT', '/v2/lotecobv/abc', { descricao: 'x', cobsv: [item(5)] }), 'PUT', '/lotecobv/{id}', 400, 'LoteCobVOperacaoInvalida'],
    [call('PATCH', '/v2/lotecobv/1', { cobsv: [{ txid: aTxid(7), valor: { original: '1.00' } }] }), 'PATCH', '/lotecobv/{id}', 400, 'LoteCobVOperacaoInvalida'],
    [call('PATCH', '/v2/lotecobv/8', { cobsv: [{ txid: aTxid(1), valor: { original: '1.00' } }] }), 'PATCH', '/lotecobv/{id}', 404, 'LoteCobVNaoEncontrado'],
    [call('GET', '/v2/lotecobv/8'), 'GET', '/lotecobv/{id}', 404, 'LoteCobVNaoEncontrado'],
    [call('GET', '/v2/lotecobv?inicio=2026-03-11T00:00:00Z&fim=2026-03-10T00:00:00Z'), 'GET', '/lotecobv', 400, 'LoteCobVConsultaInvalida'],
    [call('GET', '/v2/lotecobv?inicio=2026-03-10T00:00:00Z'), 'GET', '/lotecobv', 400, 'LoteCobVConsultaInvalida'],
  ])
  t.equal((await call('GET', '/v2/lotecobv/3')).statusCode, 404, 'no refused batch was kept')
  t.equal((await call('GET', '/v2/lotecobv/1')).json().cobsv.length, 3, 'nor a refused change of one')
})

t.test('PUT again with the same txids processes every request again; PATCH revises some, as PATCH /cobv/{txid}', async t => {
  const app = await buildTestApp(t)
  const call = client(app, await oauthToken(app))
  await call('PUT', '/v2/lotecobv/1', { descricao: 'março', cobsv: [item(1), item(2, { calendario: { dataDeVencimento: '2026-03-01' } })] })
  await advance(app, SETTLE)
  const fixed = await call('PUT', '/v2/lotecobv/1', { descricao: 'março, corrigido', cobsv: [item(2), item(1, { valor: { original: '11.00' } })] })
  t.equal(fixed.statusCode, 202, fixed.body)
  t.same((await call('GET', '/v2/lotecobv/1')).json().cobsv.map((c: { status: string }) => c.status), ['EM_PROCESSAMENTO', 'EM_PROCESSAMENTO'], 'in the batch\'s own order')
  await advance(app, SETTLE)
  const again = (await call('GET', '/v2/lotecobv/1')).json()
  t.match(again, { descricao: 'março, corrigido', criacao: T0, cobsv: [{ txid: aTxid(1), status: 'CRIADA' }, { txid: aTxid(2), status: 'CRIADA' }] })
  t.notOk('problema' in again.cobsv[1], 'its earlier problem is gone')
  t.match((await call('GET', `/v2/cobv/${aTxid(1)}`)).json(), { revisao: 1, valor: { original: '11.00' } }, 'the cobv created is revised')

  const patched = await call('PATCH', '/v2/lotecobv/1', { cobsv: [{ txid: aTxid(2), valor: { original: '25.00' } }] })
  t.equal(patched.statusCode, 202, patched.body)
  checkAnswer(t, patched, 'PATCH', '/lotecobv/{id}')
  t.same((await call('GET', '/v2/lotecobv/1')).json().cobsv.map((c: { status: string }) => c.status), ['CRIADA', 'EM_PROCESSAMENTO'])
  await advance(app, SETTLE)
  t.match((await call('GET', `/v2/cobv/${aTxid(2)}`)).json(), { revisao: 1, valor: { original: '25.00' } })
  // A revision the cobv route would refuse: NEGADA with that route's problem; the cobv is untouched.
  await call('PATCH', '/v2/lotecobv/1', { cobsv: [{ txid: aTxid(1), calendario: { dataDeVencimento: '2026-02-01' } }] })
  await advance(app, SETTLE)
  const negada = await call('GET', '/v2/lotecobv/1')
  checkAnswer(t, negada, 'GET', '/lotecobv/{id}')
  t.match(negada.json().cobsv[0], { status: 'NEGADA', problema: { type: `${PROBLEM_TYPE}CobVOperacaoInvalida` } })
  t.match((await call('GET', `/v2/cobv/${aTxid(1)}`)).json(), { revisao: 1, calendario: { dataDeVencimento: '2026-03-20' } })
  // Removing a cobv through its batch.
  await call('PATCH', '/v2/lotecobv/1', { cobsv: [{ txid: aTxid(2), status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' }] })
  await advance(app, SETTLE)
  t.equal((await call('GET', `/v2/cobv/${aTxid(2)}`)).json().status, 'REMOVIDA_PELO_USUARIO_RECEBEDOR')
  // A PATCH of the description alone changes no request.
  await call('PATCH', '/v2/lotecobv/1', { descricao: 'abril' })
  t.match((await call('GET', '/v2/lotecobv/1')).json(), { descricao: 'abril', cobsv: [{ status: 'NEGADA' }, { status: 'CRIADA' }] })
})

t.test('a txid a batch holds (EM_PROCESSAMENTO or NEGADA) is not written by /cobv; once CRIADA its cobv is the client\'s to revise', async t => {
  const app = await buildTestApp(t)
  const call = client(app, await oauthToken(app))
  const { txid: _txid, ...body } = item(1)
  await call('PUT', '/v2/lotecobv/1', { descricao: 'x', cobsv: [item(1), item(2, { valor: { original: '0.00' } })] })
  const held = await call('PUT', `/v2/cobv/${aTxid(1)}`, body)
  t.equal(held.statusCode, 400)
  t.match(held.json(), { type: `${PROBLEM_TYPE}CobVOperacaoInvalida`, violacoes: [{ razao: /lote 1.*EM_PROCESSAMENTO/ }] })
  checkAnswer(t, held, 'PUT', '/cobv/{txid}')
  await advance(app, SETTLE)
  t.match((await call('GET', '/v2/lotecobv/1')).json().cobsv, [{ status: 'CRIADA' }, { status: 'NEGADA' }])
  const negada = await call('PUT', `/v2/cobv/${aTxid(2)}`, body)
  t.equal(negada.statusCode, 400, 'NEGADA in its batch: still the batch\'s')
  t.match(negada.json().violacoes, [{ razao: /NEGADA/ }])
  const revised = await call('PATCH', `/v2/cobv/${aTxid(1)}`, { valor: { original: '12.00' } })
  t.equal(revised.statusCode, 200, revised.body)
  t.equal((await call('PUT', '/v2/lotecobv/2', { descricao: 'y', cobsv: [item(1)] })).statusCode, 400, 'a cobv of one batch joins no other')
})

t.test('scopes: lotecobv.write to write, lotecobv.read to read', async t => {
  const app = await buildTestApp(t)
  const reader = client(app, await oauthToken(app, undefined, 'lotecobv.read'))
  const denied = await reader('PUT', '/v2/lotecobv/1', { descricao: 'x', cobsv: [item(1)] })
  t.equal(denied.statusCode, 403)
  t.match(denied.json(), { type: `${PROBLEM_TYPE}AcessoNegado`, detail: /lotecobv\.write/ })
  checkAnswer(t, denied, 'PUT', '/lotecobv/{id}')
  t.equal((await reader('PATCH', '/v2/lotecobv/1', {})).statusCode, 403)
  t.equal((await reader('GET', `/v2/lotecobv?${WINDOW}`)).statusCode, 200)
  const cobv = client(app, await oauthToken(app, undefined, 'cobv.read cobv.write'))
  t.equal((await cobv('PUT', '/v2/lotecobv/1', { descricao: 'x', cobsv: [item(1)] })).statusCode, 403, 'cobv.write is not lotecobv.write')
  t.equal((await cobv('GET', '/v2/lotecobv/1')).statusCode, 403)
  t.same(app.sandbox.store.data.cobvBatches, {}, 'nothing was created')
})

t.test('a batch id is the account\'s own: another account\'s batch of that id is not found, and its own is separate', async t => {
  const app = await buildTestApp(t)
  const mine = client(app, await oauthToken(app))
  const other = await newAccount(app)
  const theirs = client(app, await oauthToken(app, other))
  await mine('PUT', '/v2/lotecobv/1', { descricao: 'meu', cobsv: [item(1)] })
  t.equal((await theirs('GET', '/v2/lotecobv/1')).statusCode, 404)
  t.equal((await theirs('PATCH', '/v2/lotecobv/1', { descricao: 'x' })).statusCode, 404)
  t.equal((await theirs('PUT', '/v2/lotecobv/1', { descricao: 'seu', cobsv: [item(1)] })).statusCode, 202)
  await advance(app, SETTLE)
  t.equal((await mine('GET', '/v2/lotecobv/1')).json().descricao, 'meu')
  t.equal((await theirs('GET', `/v2/cobv/${aTxid(1)}`)).statusCode, 200)
  t.equal((await theirs('GET', `/v2/lotecobv?${WINDOW}`)).json().lotes.length, 1)
})

t.test('snapshots carry batches, validated on import; a batch still waiting is processed after the import', async t => {
  const app = await buildTestApp(t)
  const call = client(app, await oauthToken(app))
  await call('PUT', '/v2/lotecobv/1', { descricao: 'x', cobsv: [item(1), item(2)] })
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  t.same(Object.keys(snapshot.cobvBatches), ['1:1'])
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/reset', payload: {} })).statusCode, 200)
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })).statusCode, 200)
  await advance(app, SETTLE)
  const after = client(app, await oauthToken(app))
  t.match((await after('GET', '/v2/lotecobv/1')).json().cobsv, [{ status: 'CRIADA' }, { status: 'CRIADA' }])
  t.equal((await after('GET', `/v2/cobv/${aTxid(2)}`)).json().status, 'ATIVA')
  for (const [path, change] of [
    ['cobvBatches/1:1/items/0/status', (b: Record<string, any>) => { b.items[0].status = 'CONCLUIDA' }],
    ['cobvBatches/1:1: the record\'s key is "1:2"', (b: Record<string, any>) => { b.key = '1:2' }],
    ['cobvBatches/1:1: the key of batch 2 of account 1 is "1:2"', (b: Record<string, any>) => { b.id = 2 }],
  ] as const) {
    const broken = structuredClone(snapshot)
    change(broken.cobvBatches['1:1'])
    const refused = await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: broken })
    t.equal(refused.statusCode, 400, path)
    t.match(refused.json().details.problems, [path])
  }
  // A document written before batches existed loads, with none.
  const old = structuredClone(snapshot)
  delete old.cobvBatches
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: old })).statusCode, 200)
})

t.test('a batch still waiting when the sandbox stops is processed after a restart with --data', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'pix-lotecobv-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const config = { data: join(dir, 'state.json'), seed: 'lote-seed', clock: 'frozen' as const, clockStart: T0 }
  const first = await buildApp({ config })
  t.equal((await client(first, await oauthToken(first))('PUT', '/v2/lotecobv/1', { descricao: 'x', cobsv: [item(1)] })).statusCode, 202)
  await first.close()
  const second = await buildApp({ config })
  t.teardown(() => second.close())
  const call = client(second, await oauthToken(second))
  t.match((await call('GET', '/v2/lotecobv/1')).json().cobsv, [{ status: 'EM_PROCESSAMENTO' }])
  await advance(second, SETTLE)
  t.match((await call('GET', '/v2/lotecobv/1')).json().cobsv, [{ status: 'CRIADA' }])
  t.equal((await call('GET', `/v2/cobv/${aTxid(1)}`)).json().status, 'ATIVA')
})
