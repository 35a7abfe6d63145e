import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { advance, bearer, buildTestApp, fixtureAccount, T0 } from '../helpers/app.js'
import { checkAnswer, oauthToken, PROBLEM_TYPE } from '../helpers/api-pix.js'
import { client, recBody } from '../helpers/rec.js'

/**
 * API Pix's confirmation requests of Pix Automático's journey 1 (docs/api-pix.md, Pix Automático):
 * sent, received and answered on the virtual clock as the simulated payer behaves (by default it
 * approves), the recurrence following its request's end. Every answer validated against BACEN's API
 * Pix 2.9.0.
 */

const solicBody = (idRec: string, over: Record<string, unknown> = {}) => ({
  idRec,
  calendario: { dataExpiracaoSolicitacao: '2026-03-12T15:00:00Z' },
  destinatario: { agencia: '2569', conta: '550689', cpf: '45164632481', ispbParticipante: '91193552' },
  ...over,
})

async function setup (t: Test) {
  const app = await buildTestApp(t)
  const call = client(app, await oauthToken(app))
  const rec = (await call('POST', '/v2/rec', recBody())).json()
  return { app, call, rec }
}

const behave = (app: FastifyInstance, payload: object) => app.inject({ method: 'PUT', url: '/__sandbox/payer-behaviours', payload })

t.test('solicrec: CRIADA, ENVIADA, RECEBIDA, ACEITA on the virtual clock; the recurrence APROVADA by journey 1', async t => {
  const { app, call, rec } = await setup(t)
  const created = await call('POST', '/v2/solicrec', solicBody(rec.idRec))
  t.equal(created.statusCode, 201, created.body)
  checkAnswer(t, created, 'POST', '/solicrec')
  const s = created.json()
  t.match(s, { idSolicRec: /^SC\d{8}20260310[a-zA-Z0-9]{11}$/, idRec: rec.idRec, status: 'CRIADA', recPayload: { idRec: rec.idRec, recebedor: { ispbParticipante: /^\d{8}$/ } } })
  const statusAfter = async (ms: number) => {
    await advance(app, ms)
    const res = await call('GET', `/v2/solicrec/${s.idSolicRec}`)
    checkAnswer(t, res, 'GET', '/solicrec/{idSolicRec}')
    return res.json().status
  }
  t.equal(await statusAfter(1000), 'ENVIADA')
  t.equal(await statusAfter(1000), 'RECEBIDA')
  t.equal(await statusAfter(1000), 'ACEITA')
  const got = await call('GET', `/v2/rec/${rec.idRec}`)
  checkAnswer(t, got, 'GET', '/rec/{idRec}')
  t.match(got.json(), {
    status: 'APROVADA',
    ativacao: { tipoJornada: 'JORNADA_1' },
    pagador: { cpf: '45164632481', ispbParticipante: '91193552' },
    atualizacao: [{ status: 'CRIADA', data: T0 }, { status: 'APROVADA', data: '2026-03-10T15:00:03.000Z' }],
    solicitacao: [{ idSolicRec: s.idSolicRec, status: 'ACEITA' }],
  })
  t.same(got.json().solicitacao[0].atualizacao.map((u: { status: string }) => u.status), ['CRIADA', 'ENVIADA', 'RECEBIDA', 'ACEITA'])
})

t.test('solicrec: a payer set to reject rejects the recurrence; one that never answers lets both expire', async t => {
  const { app, call, rec } = await setup(t)
  const accountId = app.sandbox.recurrences.find(rec.idRec).accountId
  t.equal((await behave(app, { accountId, document: '45164632481', authorization: 'REJECT', rejectionCode: 'AP14' })).statusCode, 200)
  await call('POST', '/v2/solicrec', solicBody(rec.idRec))
  await advance(app, 3000)
  t.match((await call('GET', `/v2/rec/${rec.idRec}`)).json(), { status: 'REJEITADA', encerramento: { rejeicao: { codigo: 'AP14' } }, solicitacao: [{ status: 'REJEITADA' }] })

  const silent = (await call('POST', '/v2/rec', recBody({ vinculo: { contrato: 'c2', devedor: { cpf: '02989131415', nome: 'Beltrano' } } }))).json()
  await behave(app, { accountId, document: '02989131415', authorization: 'NO_ANSWER' })
  const s = (await call('POST', '/v2/solicrec', solicBody(silent.idRec, { destinatario: { conta: '1', cpf: '02989131415', ispbParticipante: '91193552' } }))).json()
  await advance(app, 60_000)
  t.equal((await call('GET', `/v2/solicrec/${s.idSolicRec}`)).json().status, 'RECEBIDA', 'waiting for an answer that does not come')
  await advance(app, Date.parse('2026-03-12T15:00:00Z') - Date.parse(T0) - 60_000)
  const later = client(app, await oauthToken(app))
  const expired = await later('GET', `/v2/rec/${silent.idRec}`)
  checkAnswer(t, expired, 'GET', '/rec/{idRec}')
  t.match(expired.json(), { status: 'EXPIRADA', solicitacao: [{ status: 'EXPIRADA' }] })
})

t.test('solicrec: the receiver cancels a request waiting; the recurrence stays CRIADA for another one', async t => {
  const { app, call, rec } = await setup(t)
  const s = (await call('POST', '/v2/solicrec', solicBody(rec.idRec))).json()
  const second = await call('POST', '/v2/solicrec', solicBody(rec.idRec))
  t.equal(second.statusCode, 400)
  checkAnswer(t, second, 'POST', '/solicrec')
  t.same(second.json().violacoes, [{ razao: 'Existe uma solicitação ativa referente ao mesmo solicrec.idRec.', propriedade: 'solicrec.idRec' }])
  t.equal(second.json().type, PROBLEM_TYPE + 'SolicRecOperacaoInvalida')

  await advance(app, 1000)
  const cancelled = await call('PATCH', `/v2/solicrec/${s.idSolicRec}`, { status: 'CANCELADA' })
  t.equal(cancelled.statusCode, 201, cancelled.body)
  checkAnswer(t, cancelled, 'PATCH', '/solicrec/{idSolicRec}')
  t.equal(cancelled.json().status, 'CANCELADA')
  t.equal((await call('GET', `/v2/rec/${rec.idRec}`)).json().status, 'CRIADA')
  const again = await call('PATCH', `/v2/solicrec/${s.idSolicRec}`, { status: 'CANCELADA' })
  t.equal(again.statusCode, 400)
  checkAnswer(t, again, 'PATCH', '/solicrec/{idSolicRec}')
  await advance(app, 10_000)
  t.equal((await call('GET', `/v2/solicrec/${s.idSolicRec}`)).json().status, 'CANCELADA', 'a cancelled request takes no further step')
  t.equal((await call('POST', '/v2/solicrec', solicBody(rec.idRec))).statusCode, 201, 'another request')

  for (const [res, method, path, status] of [
    [await call('GET', '/v2/solicrec/SC000000002026031000000000000'), 'GET', '/solicrec/{idSolicRec}', 404],
    [await call('POST', '/v2/solicrec', solicBody('RN000000002026031000000000000')), 'POST', '/solicrec', 404],
    [await call('POST', '/v2/solicrec', solicBody(rec.idRec, { destinatario: { conta: '1' } })), 'POST', '/solicrec', 400],
  ] as const) {
    t.equal(res.statusCode, status, res.body)
    checkAnswer(t, res, method, path)
  }
})

t.test('scenarios of the payer\'s PSP, by header or armed: it rejects the authorisation, never answers, or cancels later', async t => {
  const app = await buildTestApp(t)
  const token = await oauthToken(app)
  const call = client(app, token)
  const accountId = fixtureAccount.id
  const withHeader = async (scenario: string) => {
    const res = await app.inject({ method: 'POST', url: '/v2/rec', headers: { ...bearer(token), 'x-sandbox-scenario': scenario }, payload: recBody() })
    t.equal(res.statusCode, 201, res.body)
    t.equal(res.headers['x-sandbox-scenario-applied'], scenario)
    return res.json().idRec as string
  }
  const rejected = await withHeader('REC_PAYER_PSP_REJECTS')
  const silent = await withHeader('REC_PAYER_PSP_SILENT')
  const armed = await app.inject({ method: 'POST', url: '/__sandbox/scenarios/arm', payload: { accountId, scenario: 'REC_PAYER_PSP_CANCELS;ms=3600000;codigo=FRUD', endpoint: 'rec', times: 1 } })
  t.equal(armed.statusCode, 201, armed.body)
  const cancels = (await call('POST', '/v2/rec', recBody())).json().idRec as string
  const plain = (await call('POST', '/v2/rec', recBody())).json().idRec as string
  for (const idRec of [rejected, silent, cancels, plain]) t.equal((await call('POST', '/v2/solicrec', solicBody(idRec))).statusCode, 201)

  await advance(app, 3000)
  const rec = async (idRec: string) => {
    // A token of now: the clock moves past an hour's.
    const res = await client(app, await oauthToken(app))('GET', `/v2/rec/${idRec}`)
    checkAnswer(t, res, 'GET', '/rec/{idRec}')
    return res.json()
  }
  t.match(await rec(rejected), { status: 'REJEITADA', encerramento: { rejeicao: { codigo: 'AP14' } }, solicitacao: [{ status: 'REJEITADA' }] })
  t.match(await rec(silent), { status: 'CRIADA', solicitacao: [{ status: 'ENVIADA' }] }, 'never received')
  t.match(await rec(cancels), { status: 'APROVADA' })
  t.match(await rec(plain), { status: 'APROVADA' })

  await advance(app, 3_600_000)
  t.match(await rec(cancels), { status: 'CANCELADA', encerramento: { cancelamento: { solicitante: 'PSP_PAGADOR', codigo: 'FRUD' } } })
  t.match(await rec(plain), { status: 'APROVADA' }, 'the armed scenario applied once')
  await advance(app, Date.parse('2026-03-12T15:00:00Z') - Date.parse(T0))
  t.match(await rec(silent), { status: 'EXPIRADA', solicitacao: [{ status: 'EXPIRADA' }] })

  // Each recurrence's notifications (/webhookrec's event type rec) follow what the scenario did.
  const log = (await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries?accountId=${accountId}&eventType=rec&limit=1000` })).json().deliveries as Array<{ seq: number, body: { recs: Array<{ idRec: string, status: string }> } }>
  const told = (idRec: string) => log.sort((a, b) => a.seq - b.seq).map(d => d.body.recs[0]).filter(r => r.idRec === idRec).map(r => r.status)
  t.same(told(rejected), ['CRIADA', 'REJEITADA'])
  t.same(told(silent), ['CRIADA', 'EXPIRADA'])
  t.same(told(cancels), ['CRIADA', 'APROVADA', 'CANCELADA'])
})

t.test('solicrec: open at most thirty days after it was sent, whatever a later dataExpiracaoSolicitacao says (IN BCB 436/2023, art. 3)', async t => {
  const { app, call, rec } = await setup(t)
  const accountId = app.sandbox.recurrences.find(rec.idRec).accountId
  await behave(app, { accountId, authorization: 'NO_ANSWER' })
  // Sixty days asked for: accepted as written, and the payer's PSP closes it thirty days after it was sent.
  const created = await call('POST', '/v2/solicrec', solicBody(rec.idRec, { calendario: { dataExpiracaoSolicitacao: '2026-05-09T15:00:00Z' } }))
  t.equal(created.statusCode, 201, created.body)
  const { idSolicRec } = created.json()
  const sentAt = Date.parse(T0) + 1000
  const thirtyDays = 30 * 86_400_000
  await advance(app, sentAt + thirtyDays - 1 - Date.parse(T0))
  const read = async () => (await client(app, await oauthToken(app))('GET', `/v2/solicrec/${idSolicRec}`)).json()
  t.match(await read(), { status: 'RECEBIDA', calendario: { dataExpiracaoSolicitacao: '2026-05-09T15:00:00Z' } }, 'still waiting for the payer a moment before')
  await advance(app, 1)
  const expired = await client(app, await oauthToken(app))('GET', `/v2/rec/${rec.idRec}`)
  checkAnswer(t, expired, 'GET', '/rec/{idRec}')
  t.match(expired.json(), { status: 'EXPIRADA', solicitacao: [{ idSolicRec, status: 'EXPIRADA' }] })
  t.equal(expired.json().solicitacao[0].atualizacao.at(-1).data, new Date(sentAt + thirtyDays).toISOString(), 'thirty days after ENVIADA (a shorter expiry stands: the test above)')
})
