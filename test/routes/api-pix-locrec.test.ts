import t, { type Test } from 'tap'
import { createPublicKey } from 'node:crypto'
import { createVerifier } from 'fast-jwt'
import { readRecurrenceCode } from '../../server/domain/rec-codes.js'
import { aTxid } from '../helpers/payins.js'
import { advance, bearer, buildTestApp, fixtureAccount, newAccount, noMtlsCheck, T0 } from '../helpers/app.js'
import { apiPixBacen, checkAnswer, jwsPart, oauthToken, PROBLEM_TYPE } from '../helpers/api-pix.js'
import { client, control, recBody } from '../helpers/rec.js'

/**
 * API Pix's locations of recurrences (docs/api-pix.md, Pix Automático): /locrec, the recurrence's
 * signed payload a payer's PSP reads at its location (journey 2), and the codes of journeys 2 and 3
 * (GET /rec/{idRec}, with `txid` for the composite one). Every answer validated against BACEN's API
 * Pix 2.9.0.
 */

const WINDOW = 'inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z'
const pathOf = (location: string) => location.slice(location.indexOf('/'))

t.test('locrec: create, bind by a recurrence\'s loc, read, list, unbind; every answer validates', async t => {
  const app = await buildTestApp(t)
  await noMtlsCheck(app, fixtureAccount.id) // its webhooks name example domains
  const call = client(app, await oauthToken(app))
  const created = await call('POST', '/v2/locrec')
  t.equal(created.statusCode, 201, created.body)
  checkAnswer(t, created, 'POST', '/locrec')
  const loc = created.json()
  t.match(loc, { id: 1, criacao: T0, location: /^localhost:80\/qr\/v2\/rec\/[0-9a-f]{32}$/ })
  t.ok(loc.location.length <= 77)
  t.equal(created.headers.location, '/v2/locrec/1')
  const spare = (await call('POST', '/v2/locrec')).json()

  const rec = (await call('POST', '/v2/rec', recBody({ loc: loc.id }))).json()
  t.match(rec.loc, { id: loc.id, location: loc.location, idRec: rec.idRec })
  const inUse = await call('POST', '/v2/rec', recBody({ loc: loc.id }))
  t.equal(inUse.statusCode, 400)
  checkAnswer(t, inUse, 'POST', '/rec')
  t.same(inUse.json().violacoes, [{ razao: 'O location referenciado por rec.loc já está sendo utilizado por outra recorrência.', propriedade: 'rec.loc' }])

  const got = await call('GET', `/v2/locrec/${loc.id}`)
  checkAnswer(t, got, 'GET', '/locrec/{id}')
  t.same(got.json(), { ...loc, idRec: rec.idRec })
  const ids = async (query: string) => {
    const res = await call('GET', `/v2/locrec?${WINDOW}${query}`)
    checkAnswer(t, res, 'GET', '/locrec')
    return res.json().loc.map((l: { id: number }) => l.id)
  }
  t.same(await ids(''), [loc.id, spare.id])
  t.same(await ids('&idRecPresente=true'), [loc.id])
  t.same(await ids('&idRecPresente=false'), [spare.id])
  t.same(await ids('&paginacao.itensPorPagina=1&paginacao.paginaAtual=1'), [spare.id])

  const unbound = await call('DELETE', `/v2/locrec/${loc.id}/idRec`)
  t.equal(unbound.statusCode, 200)
  checkAnswer(t, unbound, 'DELETE', '/locrec/{id}/idRec')
  t.notOk('idRec' in unbound.json())
  const recAfter = (await call('GET', `/v2/rec/${rec.idRec}`)).json()
  t.notOk('loc' in recAfter || 'dadosQR' in recAfter, 'the recurrence shows no location any more')
  t.equal(recAfter.status, 'CRIADA', 'and keeps its status')
  t.equal((await app.inject({ method: 'GET', url: pathOf(loc.location) })).statusCode, 404, 'the location serves nothing')
  t.equal((await call('PATCH', `/v2/rec/${rec.idRec}`, { loc: spare.id })).statusCode, 200, 'a CRIADA recurrence takes another location')
  t.same(await ids('&idRecPresente=true'), [spare.id])

  const other = await newAccount(app)
  const otherCall = client(app, await oauthToken(app, other))
  for (const [res, method, path] of [
    [await otherCall('GET', `/v2/locrec/${loc.id}`), 'GET', '/locrec/{id}'],
    [await otherCall('DELETE', `/v2/locrec/${spare.id}/idRec`), 'DELETE', '/locrec/{id}/idRec'],
  ] as const) {
    t.equal(res.statusCode, 404)
    checkAnswer(t, res, method, path)
    t.equal(res.json().type, PROBLEM_TYPE + 'PayloadLocationRecNaoEncontrado')
  }
  t.same((await call('GET', '/v2/locrec/2')).json().idRec, rec.idRec, 'still the owner\'s')
})

t.test('journey 2: the recurrence\'s code carries its location, which answers the signed RecPayload', async t => {
  const app = await buildTestApp(t)
  await noMtlsCheck(app, fixtureAccount.id) // its webhooks name example domains
  const call = client(app, await oauthToken(app))
  const loc = (await call('POST', '/v2/locrec')).json()
  const rec = (await call('POST', '/v2/rec', recBody({ loc: loc.id }))).json()
  const got = (await call('GET', `/v2/rec/${rec.idRec}`)).json()
  t.equal(got.dadosQR.jornada, 'JORNADA_2')
  t.same(readRecurrenceCode(got.dadosQR.pixCopiaECola), { ok: true, recLocation: loc.location, payable: false })

  const res = await app.inject({ method: 'GET', url: pathOf(loc.location) })
  t.equal(res.statusCode, 200, res.body)
  t.match(res.headers['content-type'], /^application\/jose/)
  const jws = res.body
  const header = jwsPart(jws, 0)
  t.match(header, { alg: 'ES256', typ: 'JWS', jku: 'http://localhost:80/.well-known/jwks.json' })
  const payload = jwsPart(jws, 1)
  const validate = apiPixBacen.validatorFor('GET', '/rec/{recUrlAccessToken}', 200)
  t.ok(validate(payload), JSON.stringify(validate.errors))
  t.match(payload, { idRec: rec.idRec, valor: { valorRec: '35.00' }, recebedor: { ispbParticipante: /^\d{8}$/ }, atualizacao: [{ status: 'CRIADA' }] })
  const jwk = (await app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json().keys.find((k: { kid: string }) => k.kid === header.kid)
  const key = createPublicKey({ key: jwk, format: 'jwk' }).export({ format: 'pem', type: 'spki' }).toString()
  t.same(createVerifier({ key, algorithms: ['ES256'] })(jws), payload, 'signed with the published key')

  // The payer approves through the code: journey 2, and the payload still answers while it is in force.
  await control(app, `/__sandbox/recurrences/${rec.idRec}/approve`)
  t.match((await call('GET', `/v2/rec/${rec.idRec}`)).json(), { status: 'APROVADA', ativacao: { tipoJornada: 'JORNADA_2' } })
  t.equal((await app.inject({ method: 'GET', url: pathOf(loc.location) })).statusCode, 200)
  await call('PATCH', `/v2/rec/${rec.idRec}`, { status: 'CANCELADA' })
  const gone = await app.inject({ method: 'GET', url: pathOf(loc.location) })
  t.equal(gone.statusCode, 404, 'a cancelled recurrence is served no more')
  checkAnswer(t, gone, 'GET', '/rec/{recUrlAccessToken}')
  t.equal(gone.json().type, PROBLEM_TYPE + 'RecPayloadNaoEncontrado')
  t.equal((await app.inject({ method: 'GET', url: '/qr/v2/rec/0123456789abcdef0123456789abcdef' })).statusCode, 404)
})

t.test('journey 3: GET /rec/{idRec}?txid= composes the immediate charge\'s code with the recurrence; the payer approves it (control plane)', async t => {
  const app = await buildTestApp(t)
  await noMtlsCheck(app, fixtureAccount.id) // its webhooks name example domains
  const call = client(app, await oauthToken(app))
  const txid = aTxid(7)
  const cob = (await call('PUT', `/v2/cob/${txid}`, { calendario: { expiracao: 3600 }, valor: { original: '35.00' }, chave: 'recebedor@example.com' })).json()
  const loc = (await call('POST', '/v2/locrec')).json()
  const rec = (await call('POST', '/v2/rec', recBody({ loc: loc.id, ativacao: { dadosJornada: { txid } } }))).json()
  t.same(rec.ativacao, { tipoJornada: 'AGUARDANDO_DEFINICAO', dadosJornada: { txid } })
  const got = await call('GET', `/v2/rec/${rec.idRec}?txid=${txid}`)
  t.equal(got.statusCode, 200, got.body)
  checkAnswer(t, got, 'GET', '/rec/{idRec}')
  const code = got.json().dadosQR
  t.equal(code.jornada, 'JORNADA_3')
  t.ok(code.pixCopiaECola.includes(cob.location), 'the charge\'s location')
  t.same(readRecurrenceCode(code.pixCopiaECola), { ok: true, recLocation: loc.location, payable: true })
  const unknown = await call('GET', `/v2/rec/${rec.idRec}?txid=${aTxid(8)}`)
  t.equal(unknown.statusCode, 404)
  checkAnswer(t, unknown, 'GET', '/rec/{idRec}')

  await control(app, `/__sandbox/recurrences/${rec.idRec}/approve`)
  const approved = await call('GET', `/v2/rec/${rec.idRec}`)
  checkAnswer(t, approved, 'GET', '/rec/{idRec}')
  t.match(approved.json(), { status: 'APROVADA', ativacao: { tipoJornada: 'JORNADA_3', dadosJornada: { txid } } })
})

/** The account's recurrence served at a new location, with the composite code of the charge `txid` (GET /rec/{idRec}?txid=). */
async function composite (t: Test, call: ReturnType<typeof client>, txid: string, over: Record<string, unknown> = {}) {
  const loc = (await call('POST', '/v2/locrec')).json()
  const rec = (await call('POST', '/v2/rec', recBody({ loc: loc.id, ...over }))).json()
  const got = await call('GET', `/v2/rec/${rec.idRec}?txid=${txid}`)
  t.equal(got.statusCode, 200, got.body)
  checkAnswer(t, got, 'GET', '/rec/{idRec}')
  return { idRec: rec.idRec as string, dadosQR: got.json().dadosQR as { jornada: string, pixCopiaECola: string } }
}

const cobBody = { calendario: { expiracao: 3600 }, valor: { original: '35.00' }, chave: 'recebedor@example.com' }
const payCode = (app: Awaited<ReturnType<typeof buildTestApp>>, pixCode: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: '/__sandbox/pix/pay', headers, payload: { pixCode } })

t.test('journey 3: paying the composite code at /__sandbox/pix/pay pays the cob and the payer approves the recurrence (JORNADA_3, /webhookrec told)', async t => {
  const app = await buildTestApp(t)
  await noMtlsCheck(app, fixtureAccount.id) // its webhooks name example domains
  const call = client(app, await oauthToken(app))
  t.equal((await call('PUT', '/v2/webhookrec', { webhookUrl: 'https://usuario.recebedor.com/api/webhookrec' })).statusCode, 200)
  const txid = aTxid(7)
  await call('PUT', `/v2/cob/${txid}`, cobBody)
  const { idRec, dadosQR } = await composite(t, call, txid, { ativacao: { dadosJornada: { txid } } })
  t.equal(dadosQR.jornada, 'JORNADA_3')

  const paid = await payCode(app, dadosQR.pixCopiaECola)
  t.equal(paid.statusCode, 201, paid.body)
  const cob = await call('GET', `/v2/cob/${txid}`)
  checkAnswer(t, cob, 'GET', '/cob/{txid}')
  t.match(cob.json(), { status: 'CONCLUIDA', pix: [{ valor: '35.00' }] })
  const rec = await call('GET', `/v2/rec/${idRec}`)
  checkAnswer(t, rec, 'GET', '/rec/{idRec}')
  t.match(rec.json(), { status: 'APROVADA', ativacao: { tipoJornada: 'JORNADA_3', dadosJornada: { txid } }, pagador: { ispbParticipante: '00000000', cpf: '45164632481' } })
  const log = (await app.inject({ method: 'GET', url: '/__sandbox/webhooks/deliveries?eventType=rec&limit=100' })).json().deliveries as Array<{ seq: number, body: { recs: Array<{ idRec: string, status: string, ativacao: unknown }> } }>
  const told = log.sort((a, b) => a.seq - b.seq).map(d => d.body.recs[0]).filter(r => r.idRec === idRec)
  t.match(told, [{ status: 'CRIADA' }, { status: 'APROVADA', ativacao: { tipoJornada: 'JORNADA_3', dadosJornada: { txid } } }])

  // The cob's own code, without the recurrence, pays the cob and leaves the recurrence waiting.
  const plain = aTxid(8)
  const plainCob = (await call('PUT', `/v2/cob/${plain}`, cobBody)).json()
  const other = await composite(t, call, plain, { ativacao: { dadosJornada: { txid: plain } } })
  const notNamed = await call('GET', `/v2/rec/${idRec}?txid=${plain}`)
  t.equal(notNamed.statusCode, 400, 'a cob other than the one the receiver named composes no code')
  checkAnswer(t, notNamed, 'GET', '/rec/{idRec}')
  t.equal(notNamed.json().type, PROBLEM_TYPE + 'RecConsultaInvalida')
  t.equal((await payCode(app, plainCob.pixCopiaECola)).statusCode, 201)
  t.match((await call('GET', `/v2/rec/${other.idRec}`)).json(), { status: 'CRIADA', ativacao: { tipoJornada: 'AGUARDANDO_DEFINICAO' } })
})

t.test('journey 3: a cash-out by QR code of another account pays the composite code; the recurrence names the payer\'s PSP', async t => {
  const app = await buildTestApp(t)
  await noMtlsCheck(app, fixtureAccount.id) // its webhooks name example domains
  const call = client(app, await oauthToken(app))
  const txid = aTxid(7)
  await call('PUT', `/v2/cob/${txid}`, cobBody)
  const { idRec, dadosQR } = await composite(t, call, txid, { ativacao: { dadosJornada: { txid } } })
  const payer = await newAccount(app, { balance: 100 })
  const out = await app.inject({ method: 'POST', url: '/api/pix/cash-out-qrcode', headers: bearer(payer.token), payload: { value: 35, qrCode: dadosQR.pixCopiaECola, externalId: 'rec-j3' } })
  t.equal(out.statusCode, 201, out.body)
  await advance(app, 1000)
  t.match((await call('GET', `/v2/cob/${txid}`)).json(), { status: 'CONCLUIDA' })
  const rec = await call('GET', `/v2/rec/${idRec}`)
  checkAnswer(t, rec, 'GET', '/rec/{idRec}')
  t.match(rec.json(), { status: 'APROVADA', ativacao: { tipoJornada: 'JORNADA_3', dadosJornada: { txid } }, pagador: { ispbParticipante: app.sandbox.store.account(payer.accountId)!.ispb } })
})

t.test('journey 3: a payer who rejects, or a payer\'s PSP that does (REC_PAYER_PSP_REJECTS), pays the cob and rejects the recurrence', async t => {
  const app = await buildTestApp(t)
  await noMtlsCheck(app, fixtureAccount.id) // its webhooks name example domains
  const call = client(app, await oauthToken(app))
  const behaved = await app.inject({ method: 'PUT', url: '/__sandbox/payer-behaviours', payload: { accountId: fixtureAccount.id, document: '45164632481', authorization: 'REJECT' } })
  t.equal(behaved.statusCode, 200, behaved.body)
  await call('PUT', `/v2/cob/${aTxid(1)}`, cobBody)
  const byPayer = await composite(t, call, aTxid(1))
  t.equal((await payCode(app, byPayer.dadosQR.pixCopiaECola)).statusCode, 201)
  t.match((await call('GET', `/v2/cob/${aTxid(1)}`)).json(), { status: 'CONCLUIDA' })
  const rejected = await call('GET', `/v2/rec/${byPayer.idRec}`)
  checkAnswer(t, rejected, 'GET', '/rec/{idRec}')
  t.match(rejected.json(), { status: 'REJEITADA', encerramento: { rejeicao: { codigo: 'AP13' } } })

  await call('PUT', `/v2/cob/${aTxid(2)}`, cobBody)
  const loc = (await call('POST', '/v2/locrec')).json()
  const rec = await app.inject({ method: 'POST', url: '/v2/rec', headers: { ...bearer(await oauthToken(app)), 'x-sandbox-scenario': 'REC_PAYER_PSP_REJECTS' }, payload: recBody({ loc: loc.id, vinculo: { contrato: '1', devedor: { cpf: '52998224725', nome: 'Outro' }, objeto: 'x' } }) })
  const idRec = rec.json().idRec
  const code = (await call('GET', `/v2/rec/${idRec}?txid=${aTxid(2)}`)).json().dadosQR.pixCopiaECola
  t.equal((await payCode(app, code)).statusCode, 201)
  t.match((await call('GET', `/v2/rec/${idRec}`)).json(), { status: 'REJEITADA', encerramento: { rejeicao: { codigo: 'AP14' } } })
})

t.test('journey 4: a cobv\'s composite code paid on or before its due date approves the recurrence (JORNADA_4); paid late, the cobv only', async t => {
  const app = await buildTestApp(t)
  await noMtlsCheck(app, fixtureAccount.id) // its webhooks name example domains
  const call = client(app, await oauthToken(app))
  // T0 is Tuesday 2026-03-10; the cobvs are due on Thursday.
  const cobv = (txid: string) => call('PUT', `/v2/cobv/${txid}`, { calendario: { dataDeVencimento: '2026-03-12', validadeAposVencimento: 5 }, devedor: { cpf: '52998224725', nome: 'Fulano de Tal' }, valor: { original: '35.00' }, chave: 'recebedor@example.com' })
  const made = await cobv(aTxid(1))
  t.equal(made.statusCode, 201, made.body)
  const onTime = await composite(t, call, aTxid(1))
  t.equal(onTime.dadosQR.jornada, 'JORNADA_4')
  t.equal((await payCode(app, onTime.dadosQR.pixCopiaECola)).statusCode, 201)
  const cobvPaid = await call('GET', `/v2/cobv/${aTxid(1)}`)
  checkAnswer(t, cobvPaid, 'GET', '/cobv/{txid}')
  t.match(cobvPaid.json(), { status: 'CONCLUIDA' })
  const approved = await call('GET', `/v2/rec/${onTime.idRec}`)
  checkAnswer(t, approved, 'GET', '/rec/{idRec}')
  t.match(approved.json(), { status: 'APROVADA', ativacao: { tipoJornada: 'JORNADA_4' } })
  t.notOk('dadosJornada' in approved.json().ativacao, 'journey 4 names no immediate charge')
  await call('PUT', `/v2/cob/${aTxid(3)}`, cobBody)
  const otherJourney = await call('GET', `/v2/rec/${onTime.idRec}?txid=${aTxid(3)}`)
  t.equal(otherJourney.statusCode, 400, 'a cob composes no code with a recurrence activated by journey 4')
  checkAnswer(t, otherJourney, 'GET', '/rec/{idRec}')
  t.equal(otherJourney.json().type, PROBLEM_TYPE + 'RecConsultaInvalida')

  await cobv(aTxid(2))
  const late = await composite(t, call, aTxid(2))
  await advance(app, 3 * 86_400_000)
  t.equal((await payCode(app, late.dadosQR.pixCopiaECola)).statusCode, 201)
  const after = client(app, await oauthToken(app))
  t.match((await after('GET', `/v2/cobv/${aTxid(2)}`)).json(), { status: 'CONCLUIDA' })
  t.match((await after('GET', `/v2/rec/${late.idRec}`)).json(), { status: 'CRIADA', ativacao: { tipoJornada: 'AGUARDANDO_DEFINICAO' } })
})
