import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { advance, balanceOf, bearer, buildTestApp, newAccount } from '../helpers/app.js'
import { oauthToken } from '../helpers/api-pix.js'
import { receiveIncoming } from '../helpers/payins.js'

/**
 * Efí's MED routes (docs/efi.md, MED): GET /v2/gn/infracoes over the MED cases opened at
 * POST /__sandbox/med, and POST /v2/gn/infracoes/:idInfracao/defesa, once, accepting (the money goes
 * back, on the ledger and in the webhooks) or contesting.
 */

const DAY = 'inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z'

async function setUp (app: FastifyInstance) {
  const acc = await newAccount(app, { document: '11222333000181', name: 'LOJA', balance: 0 })
  const token = await oauthToken(app, acc)
  const call = (method: 'GET' | 'POST', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    app.inject({ method, url, headers: { ...bearer(token), ...headers }, ...(payload !== undefined ? { payload: payload as object } : {}) })
  const received = await receiveIncoming(app, acc.accountId, 40)
  const opened = await app.inject({ method: 'POST', url: '/__sandbox/med', payload: { endToEndId: received.endToEndId, reason: 'REFUND_REQUEST', cause: 'SCAM', description: 'QR Code falso' } })
  if (opened.statusCode !== 201) throw new Error(opened.body)
  return { acc, call, received, med: opened.json() }
}

t.test('GET /v2/gn/infracoes: the account\'s MED cases as Efí\'s infrações', async t => {
  const app = await buildTestApp(t)
  const { call, received, med, acc } = await setUp(app)
  const res = await call('GET', `/v2/gn/infracoes?${DAY}`)
  t.equal(res.statusCode, 200, res.body)
  const body = res.json()
  t.match(body.parametros, { inicio: '2026-03-10T00:00:00Z', fim: '2026-03-11T00:00:00Z', paginacao: { paginaAtual: 0, itensPorPagina: 100, quantidadeDePaginas: 1, quantidadeTotalDeItens: 1 } })
  t.match(body.infracoes, [{
    idInfracao: /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/,
    endToEndId: received.endToEndId,
    protocolo: med.id,
    valor: 40,
    status: 'ABERTA',
    razao: 'Solicitação de devolução',
    tipoSituacao: 'SCAM',
    comentario: 'QR Code falso',
    dadosAnalise: { abertura: String, prazoFinalizacao: '2026-03-17T15:00:00.000Z' },
    destino: { conta: acc.accountId, nome: 'LOJA', documento: '**.222.333/0001-**' },
  }])
  t.same((await call('GET', '/v2/gn/infracoes?inicio=2026-03-11T00:00:00Z&fim=2026-03-12T00:00:00Z')).json().infracoes, [])
  const other = await newAccount(app, {})
  t.same((await app.inject({ method: 'GET', url: `/v2/gn/infracoes?${DAY}`, headers: bearer(await oauthToken(app, other)) })).json().infracoes, [], 'another account sees none')

  const bad = await call('GET', '/v2/gn/infracoes?inicio=2026-03-11T00:00:00Z&fim=2026-03-10T00:00:00Z')
  t.equal(bad.statusCode, 400)
  t.match(bad.json(), { type: 'https://pix.bcb.gov.br/api/v2/error/InfracoesConsultaInvalida', status: 400, violacoes: [{ razao: /fim/, propriedade: 'infracoes.query' }] })
  const scenario = await call('GET', `/v2/gn/infracoes?${DAY}`, undefined, { 'x-sandbox-scenario': 'INTERNAL_ERROR' })
  t.equal(scenario.statusCode, 500)
  t.match(scenario.json(), { type: /InfracaoErroInterno$/, status: 500 })
})

t.test('a defence that accepts the claim returns the money (ledger and webhooks); a second one is 409', async t => {
  const app = await buildTestApp(t)
  const { acc, call, received } = await setUp(app)
  const [infracao] = (await call('GET', `/v2/gn/infracoes?${DAY}`)).json().infracoes
  t.match(await balanceOf(app, acc.accountId), { available: 40 })
  const res = await call('POST', `/v2/gn/infracoes/${infracao.idInfracao}/defesa`, { analise: 'aceito', justificativa: 'Reconhecemos a fraude' })
  t.equal(res.statusCode, 201, res.body)
  t.equal(res.body, '')
  await advance(app, 1000)
  t.match(await balanceOf(app, acc.accountId), { available: 0, invariantHolds: true }, 'the 40.00 went back to the payer')
  t.match((await call('GET', `/v2/gn/infracoes?${DAY}`)).json().infracoes[0], { status: 'ACEITA', defesa: 'Reconhecemos a fraude', dadosAnalise: { recebimentoDefesa: String, finalizacao: String } })
  const events = (await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries?accountId=${acc.accountId}` })).json().deliveries.map((d: { eventType: string }) => d.eventType)
  t.ok(events.includes('med_accepted'), 'the gateway\'s med_accepted')
  const meds = (await app.inject({ method: 'GET', url: `/__sandbox/med?accountId=${acc.accountId}` })).json()
  t.match(JSON.stringify(meds), /APPROVED/, 'the control plane sees the case approved')

  const again = await call('POST', `/v2/gn/infracoes/${infracao.idInfracao}/defesa`, { analise: 'rejeitado', justificativa: 'De novo' })
  t.equal(again.statusCode, 409)
  t.same(again.json(), {
    type: 'https://pix.bcb.gov.br/api/v2/error/InfracaoOperacaoInvalida',
    title: 'Operação inválida',
    status: 409,
    detail: 'A requisição que busca apresentar uma defesa de infração não respeita o schema ou está semanticamente errada.',
    violacoes: [{ razao: 'A defesa para essa infração já foi criada.', propriedade: 'body.infractionId' }],
  })
  t.ok(received.endToEndId)
})

t.test('a defence that contests: EM_DEFESA, no money moves; unknown, foreign, late and invalid defences refused', async t => {
  const app = await buildTestApp(t)
  const { acc, call } = await setUp(app)
  const [infracao] = (await call('GET', `/v2/gn/infracoes?${DAY}`)).json().infracoes
  const other = await newAccount(app, {})
  const foreign = await app.inject({ method: 'POST', url: `/v2/gn/infracoes/${infracao.idInfracao}/defesa`, headers: bearer(await oauthToken(app, other)), payload: { analise: 'aceito', justificativa: 'x' } })
  t.equal(foreign.statusCode, 404)
  t.same(foreign.json(), { type: 'https://pix.bcb.gov.br/api/v2/error/InfracaoNaoEncontrada', title: 'Não encontrado', status: 404, detail: 'Infração não encontrada.' })
  t.equal((await call('POST', '/v2/gn/infracoes/00000000-0000-4000-8000-00000000ffff/defesa', { analise: 'aceito', justificativa: 'x' })).statusCode, 404)
  const invalid = await call('POST', `/v2/gn/infracoes/${infracao.idInfracao}/defesa`, { analise: 'talvez', justificativa: 'x' })
  t.equal(invalid.statusCode, 400)
  t.match(invalid.json(), { type: /InfracoesConsultaInvalida$/ })
  t.equal((await call('POST', '/v2/gn/infracoes/nao-uuid/defesa', { analise: 'aceito', justificativa: 'x' })).statusCode, 400)

  const contested = await call('POST', `/v2/gn/infracoes/${infracao.idInfracao}/defesa`, { analise: 'rejeitado', justificativa: 'O cliente recebeu o produto' })
  t.equal(contested.statusCode, 201)
  t.match((await call('GET', `/v2/gn/infracoes?${DAY}`)).json().infracoes[0], { status: 'EM_DEFESA', defesa: 'O cliente recebeu o produto' })
  t.match(await balanceOf(app, acc.accountId), { available: 40, invariantHolds: true })

  // A second case, defended after its 7 days.
  const late = await receiveIncoming(app, acc.accountId, 5)
  await app.inject({ method: 'POST', url: '/__sandbox/med', payload: { endToEndId: late.endToEndId, reason: 'REFUND_REQUEST' } })
  const lateId = (await call('GET', `/v2/gn/infracoes?${DAY}`)).json().infracoes[1].idInfracao
  await advance(app, 8 * 86_400_000)
  // A token lives 1800 s of sandbox time: a new one after the week.
  const tooLate = await app.inject({ method: 'POST', url: `/v2/gn/infracoes/${lateId}/defesa`, headers: bearer(await oauthToken(app, acc)), payload: { analise: 'aceito', justificativa: 'x' } })
  t.equal(tooLate.statusCode, 422)
  t.match(tooLate.json(), { type: /InfracaoOperacaoInvalida$/, violacoes: [{ razao: 'O prazo para defesa foi excedido.' }] })
})
