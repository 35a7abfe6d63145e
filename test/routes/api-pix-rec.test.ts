import t from 'tap'
import { advance, buildTestApp, T0 } from '../helpers/app.js'
import { checkAnswer, oauthToken, PROBLEM_TYPE } from '../helpers/api-pix.js'
import { client, control, recBody } from '../helpers/rec.js'

/**
 * API Pix's recurrences of Pix Automático (docs/api-pix.md, Pix Automático): POST, GET, PATCH and the
 * list of /rec, the statuses a recurrence goes through with its history, and the payer's side steered
 * through the control plane. Every answer validated against BACEN's API Pix 2.9.0.
 */

const WINDOW = 'inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z'

t.test('rec: create, read, list with its filters and paging; every answer validates', async t => {
  const app = await buildTestApp(t)
  const call = client(app, await oauthToken(app))
  const created = await call('POST', '/v2/rec', recBody())
  t.equal(created.statusCode, 201, created.body)
  checkAnswer(t, created, 'POST', '/rec')
  const rec = created.json()
  t.match(rec, {
    idRec: /^RN\d{8}20260310[a-zA-Z0-9]{11}$/,
    status: 'CRIADA',
    atualizacao: [{ status: 'CRIADA', data: T0 }],
    ativacao: { tipoJornada: 'AGUARDANDO_DEFINICAO' },
    recebedor: { cnpj: String, nome: String },
    valor: { valorRec: '35.00' },
  })
  const other = (await call('POST', '/v2/rec', recBody({ vinculo: { contrato: 'c2', devedor: { cnpj: '12ABC34501DE35', nome: 'Empresa' } }, valor: {}, politicaRetentativa: 'PERMITE_3R_7D' }))).json()
  t.match(other.idRec, /^RR/, 'the id says retries are allowed')

  const got = await call('GET', `/v2/rec/${rec.idRec}`)
  checkAnswer(t, got, 'GET', '/rec/{idRec}')
  t.same(got.json().idRec, rec.idRec)
  t.notOk('dadosQR' in got.json(), 'no location, no code')

  const ids = async (query: string) => {
    const res = await call('GET', `/v2/rec?${WINDOW}${query}`)
    checkAnswer(t, res, 'GET', '/rec')
    return res.json().recs.map((r: { idRec: string }) => r.idRec)
  }
  t.same(await ids(''), [rec.idRec, other.idRec])
  t.same(await ids('&cpf=45164632481'), [rec.idRec])
  t.same(await ids('&cnpj=12ABC34501DE35'), [other.idRec])
  t.same(await ids('&status=APROVADA'), [])
  t.same(await ids('&locationPresente=true'), [])
  t.same(await ids('&paginacao.itensPorPagina=1&paginacao.paginaAtual=1'), [other.idRec])

  for (const [res, method, path, status, type] of [
    [await call('GET', '/v2/rec/RN000000002026031000000000000'), 'GET', '/rec/{idRec}', 404, 'RecNaoEncontrada'],
    [await call('POST', '/v2/rec', recBody({ calendario: { dataInicial: '2026-03-09', periodicidade: 'MENSAL' } })), 'POST', '/rec', 400, 'RecOperacaoInvalida'],
    [await call('POST', '/v2/rec', recBody({ loc: 99 })), 'POST', '/rec', 400, 'RecOperacaoInvalida'],
    [await call('GET', '/v2/rec?inicio=x&fim=y'), 'GET', '/rec', 400, 'RecConsultaInvalida'],
  ] as const) {
    t.equal(res.statusCode, status, `${method} ${path}: ${res.body}`)
    checkAnswer(t, res, method, path)
    t.equal(res.json().type, PROBLEM_TYPE + type)
  }
  const early = (await call('POST', '/v2/rec', recBody({ calendario: { dataInicial: '2026-03-09', periodicidade: 'MENSAL' } }))).json()
  t.same(early.violacoes, [{ razao: 'O campo rec.calendario.dataInicial é anterior à data de criação da recorrência.', propriedade: 'rec.calendario.dataInicial' }])
  t.same(await ids(''), [rec.idRec, other.idRec], 'a refused recurrence is not stored')
})

t.test('rec: another account\'s recurrence is not found, and a token without rec.write may not create', async t => {
  const app = await buildTestApp(t)
  const call = client(app, await oauthToken(app))
  const rec = (await call('POST', '/v2/rec', recBody())).json()
  const readOnly = client(app, await oauthToken(app, undefined, 'rec.read'))
  const denied = await readOnly('POST', '/v2/rec', recBody())
  t.equal(denied.statusCode, 403)
  checkAnswer(t, denied, 'POST', '/rec')
  t.equal((await readOnly('GET', `/v2/rec/${rec.idRec}`)).statusCode, 200)
  const created = await app.inject({ method: 'POST', url: '/__sandbox/accounts', payload: { name: 'Outra Loja' } })
  const otherCall = client(app, await oauthToken(app, created.json()))
  t.equal((await otherCall('GET', `/v2/rec/${rec.idRec}`)).statusCode, 404)
  t.equal((await otherCall('PATCH', `/v2/rec/${rec.idRec}`, { status: 'CANCELADA' })).statusCode, 404)
})

t.test('rec: the receiver revises and cancels; the history keeps each status', async t => {
  const app = await buildTestApp(t)
  const call = client(app, await oauthToken(app))
  const rec = (await call('POST', '/v2/rec', recBody())).json()
  const revised = await call('PATCH', `/v2/rec/${rec.idRec}`, { vinculo: { devedor: { nome: 'Fulano de Tal Jr' } }, calendario: { dataInicial: '2026-05-01' } })
  t.equal(revised.statusCode, 200, revised.body)
  checkAnswer(t, revised, 'PATCH', '/rec/{idRec}')
  t.match(revised.json(), { vinculo: { devedor: { cpf: '45164632481', nome: 'Fulano de Tal Jr' } }, calendario: { dataInicial: '2026-05-01' }, status: 'CRIADA' })
  await advance(app, 60_000)
  const cancelled = await call('PATCH', `/v2/rec/${rec.idRec}`, { status: 'CANCELADA' })
  checkAnswer(t, cancelled, 'PATCH', '/rec/{idRec}')
  t.match(cancelled.json(), {
    status: 'CANCELADA',
    atualizacao: [{ status: 'CRIADA', data: T0 }, { status: 'CANCELADA', data: '2026-03-10T15:01:00.000Z' }],
    encerramento: { cancelamento: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR' } },
  })
  const again = await call('PATCH', `/v2/rec/${rec.idRec}`, { vinculo: { devedor: { nome: 'X' } } })
  t.equal(again.statusCode, 400)
  checkAnswer(t, again, 'PATCH', '/rec/{idRec}')
  t.match(again.json().violacoes, [{ propriedade: 'rec.status' }])
})

t.test('rec: the payer approves, rejects, cancels later, or lets it expire (the control plane)', async t => {
  const app = await buildTestApp(t)
  const call = client(app, await oauthToken(app))
  const [a, b, c, d] = await Promise.all([0, 1, 2, 3].map(async () => (await call('POST', '/v2/rec', recBody())).json()))

  const approved = await control(app, `/__sandbox/recurrences/${a.idRec}/approve`, { jornada: 'JORNADA_2', valorMaximo: '50.00' })
  t.equal(approved.statusCode, 200, approved.body)
  const gotA = await call('GET', `/v2/rec/${a.idRec}`)
  checkAnswer(t, gotA, 'GET', '/rec/{idRec}')
  t.match(gotA.json(), { status: 'APROVADA', ativacao: { tipoJornada: 'JORNADA_2' }, pagador: { cpf: '45164632481', ispbParticipante: /^\d{8}$/ } })
  t.equal((await control(app, `/__sandbox/recurrences/${a.idRec}/approve`)).statusCode, 409, 'approved once')

  await control(app, `/__sandbox/recurrences/${b.idRec}/reject`, { codigo: 'AP14' })
  const gotB = await call('GET', `/v2/rec/${b.idRec}`)
  checkAnswer(t, gotB, 'GET', '/rec/{idRec}')
  t.match(gotB.json(), { status: 'REJEITADA', encerramento: { rejeicao: { codigo: 'AP14' } } })

  await control(app, `/__sandbox/recurrences/${a.idRec}/cancel`)
  const gotA2 = (await call('GET', `/v2/rec/${a.idRec}`)).json()
  t.match(gotA2, { status: 'CANCELADA', encerramento: { cancelamento: { solicitante: 'USUARIO_PAGADOR', codigo: 'SLDB' } } })
  t.same(gotA2.atualizacao.map((u: { status: string }) => u.status), ['CRIADA', 'APROVADA', 'CANCELADA'])

  await control(app, `/__sandbox/recurrences/${c.idRec}/expire`)
  t.equal((await call('GET', `/v2/rec/${c.idRec}`)).json().status, 'EXPIRADA')
  t.equal((await control(app, `/__sandbox/recurrences/${c.idRec}/cancel`)).statusCode, 409)
  t.equal((await control(app, '/__sandbox/recurrences/RN000000002026031000000000000/approve')).statusCode, 404)

  // An approved recurrence expires on its own after its dataFinal (2027-03-01, São Paulo), on the virtual clock.
  await control(app, `/__sandbox/recurrences/${d.idRec}/approve`, { jornada: 'JORNADA_2' })
  const end = Date.parse('2027-03-02T03:00:00.000Z')
  await advance(app, end - Date.parse(T0) - 1)
  const later = client(app, await oauthToken(app))
  t.equal((await later('GET', `/v2/rec/${d.idRec}`)).json().status, 'APROVADA', 'in force through its last day')
  await advance(app, 1)
  const gotD = await later('GET', `/v2/rec/${d.idRec}`)
  checkAnswer(t, gotD, 'GET', '/rec/{idRec}')
  t.match(gotD.json(), { status: 'EXPIRADA', atualizacao: [{ status: 'CRIADA' }, { status: 'APROVADA' }, { status: 'EXPIRADA', data: '2027-03-02T03:00:00.000Z' }] })
})
