import t from 'tap'
import { OAUTH_SCOPES } from '../../server/domain/scopes.js'
import { createPublicKey, verify } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { createVerifier } from 'fast-jwt'
import { buildApp } from '../../server/app.js'
import { buildBrCode } from '../../server/domain/brcode.js'
import { aTxid, payCode } from '../helpers/payins.js'
import { balanceOf, bearer, buildTestApp, newAccount, T0, tokenFor } from '../helpers/app.js'
import { apiPixBacen, checkAnswer, jwsPart, oauthToken, PROBLEM_TYPE } from '../helpers/api-pix.js'
import { CORRECTIONS } from '../helpers/bacen.js'

/**
 * API Pix's payload locations (docs/api-pix.md, loc; "Payload locations and the key"): the loc
 * resource, the signed payload a payer's PSP reads at a location and the key it verifies it with, and
 * the sandbox's own pay path for codes that carry such a location. Every answer validated against
 * BACEN's API Pix 2.9.0.
 */

const cobBody = (over: Record<string, unknown> = {}) => ({ calendario: { expiracao: 3600 }, valor: { original: '10.00' }, chave: 'recebedor@example.com', ...over })
const WINDOW = 'inicio=2026-03-10T00:00:00Z&fim=2026-03-11T00:00:00Z'

function client (app: FastifyInstance, token: string) {
  return (method: 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    app.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) })
}

/** The token of a location (its last segment), which GET /qr/v2/:token serves. */
const pathOf = (location: string) => location.slice(location.indexOf('/'))

t.test('the API Pix dialect is validated with the reference\'s corrections only: none of the gateway\'s departures', async t => {
  t.same([...apiPixBacen.applied].sort(), [...CORRECTIONS].sort())
  t.same(apiPixBacen.departures, [])
})

t.test('loc: create, read, list with its filters and paging, unbind; every answer validates', async t => {
  const app = await buildTestApp(t)
  const call = client(app, await oauthToken(app))
  const created = await call('POST', '/v2/loc', { tipoCob: 'cob' })
  t.equal(created.statusCode, 201)
  checkAnswer(t, created, 'POST', '/loc')
  const loc = created.json()
  t.match(loc, { id: 1, tipoCob: 'cob', criacao: T0, location: /^localhost:80\/qr\/v2\/[0-9a-f]{32}$/ })
  t.notOk('txid' in loc, 'serving no charge yet')
  t.equal(created.headers.location, '/v2/loc/1')
  const cobvLoc = (await call('POST', '/v2/loc', { tipoCob: 'cobv' })).json()
  const cob = (await call('PUT', `/v2/cob/${aTxid(1)}`, cobBody({ loc: { id: loc.id } }))).json()
  const got = await call('GET', `/v2/loc/${loc.id}`)
  checkAnswer(t, got, 'GET', '/loc/{id}')
  t.same(got.json(), { ...loc, txid: cob.txid })

  const ids = async (query: string) => {
    const res = await call('GET', `/v2/loc?${WINDOW}${query}`)
    checkAnswer(t, res, 'GET', '/loc')
    return res.json().loc.map((l: { id: number }) => l.id)
  }
  t.same(await ids(''), [loc.id, cobvLoc.id])
  t.same(await ids('&tipoCob=cobv'), [cobvLoc.id])
  t.same(await ids('&txIdPresente=true'), [loc.id])
  t.same(await ids('&txIdPresente=false'), [cobvLoc.id])
  t.same(await ids('&paginacao.itensPorPagina=1&paginacao.paginaAtual=1'), [cobvLoc.id])
  t.same((await call('GET', '/v2/loc?inicio=2026-03-08T00:00:00Z&fim=2026-03-09T00:00:00Z')).json().loc, [], 'outside the window')

  const unbound = await call('DELETE', `/v2/loc/${loc.id}/txid`)
  t.equal(unbound.statusCode, 200)
  checkAnswer(t, unbound, 'DELETE', '/loc/{id}/txid')
  t.notOk('txid' in unbound.json())
  const cobAfter = (await call('GET', `/v2/cob/${aTxid(1)}`)).json()
  t.notOk('location' in cobAfter || 'loc' in cobAfter || 'pixCopiaECola' in cobAfter, 'the cob shows no location any more')
  t.equal(cobAfter.status, 'ATIVA', 'and keeps its status')
  t.equal((await call('DELETE', `/v2/loc/${loc.id}/txid`)).statusCode, 200, 'unbinding what serves nothing answers it as it is')

  for (const [res, method, path, status, type] of [
    [await call('GET', '/v2/loc/99'), 'GET', '/loc/{id}', 404, 'PayloadLocationNaoEncontrado'],
    [await call('DELETE', '/v2/loc/99/txid'), 'DELETE', '/loc/{id}/txid', 404, 'PayloadLocationNaoEncontrado'],
    [await call('POST', '/v2/loc', { tipoCob: 'cobr' }), 'POST', '/loc', 400, 'PayloadLocationOperacaoInvalida'],
    [await call('GET', '/v2/loc?inicio=x&fim=y'), 'GET', '/loc', 400, 'PayloadLocationConsultaInvalida'],
  ] as const) {
    t.equal(res.statusCode, status, `${method} ${path}`)
    t.equal(res.json().type, PROBLEM_TYPE + type, `${method} ${path}`)
    checkAnswer(t, res, method, path)
  }
  const invalid = (await call('POST', '/v2/loc', { tipoCob: 'cobr' })).json()
  t.same(invalid.violacoes, [{ razao: 'tipoCob deve ser um de: cob, cobv', propriedade: 'loc.tipoCob' }])
  // Another account's location is not found, whatever its id.
  const other = await newAccount(app)
  t.equal((await client(app, other.token)('GET', `/v2/loc/${loc.id}`)).statusCode, 404)
})

t.test('a location serves its charge as a JWS signed with the sandbox\'s key, verified by node:crypto and fast-jwt with the published JWK', async t => {
  const app = await buildTestApp(t)
  const call = client(app, await oauthToken(app))
  const cob = (await call('PUT', `/v2/cob/${aTxid(1)}`, cobBody({ devedor: { cpf: '52998224725', nome: 'MARIA' }, solicitacaoPagador: 'pedido 42' }))).json()
  const res = await app.inject({ method: 'GET', url: pathOf(cob.location) })
  t.equal(res.statusCode, 200)
  t.equal(res.headers['content-type'], 'application/jose')
  const jws = res.body
  const header = jwsPart(jws, 0)
  t.match(header, { alg: 'ES256', typ: 'JWS', kid: /^[\w-]{43}$/, jku: 'http://localhost:80/.well-known/jwks.json' })
  const payload = jwsPart(jws, 1)
  const validate = apiPixBacen.validatorFor('GET', '/{pixUrlAccessToken}', 200)
  t.ok(validate(payload), `CobPayload: ${JSON.stringify(validate.errors)}`)
  t.match(payload, { txid: aTxid(1), revisao: 0, status: 'ATIVA', valor: { original: '10.00' }, chave: 'recebedor@example.com', devedor: { cpf: '52998224725', nome: 'MARIA' }, solicitacaoPagador: 'pedido 42', calendario: { criacao: T0, apresentacao: T0, expiracao: 3600 } })

  // The key, where jku says, by its kid; checked by verifiers nobody here wrote.
  const jwks = await app.inject({ method: 'GET', url: new URL(String(header.jku)).pathname })
  t.equal(jwks.statusCode, 200)
  const jwk = jwks.json().keys.find((k: { kid: string }) => k.kid === header.kid)
  t.match(jwk, { kty: 'EC', crv: 'P-256', use: 'sig', alg: 'ES256' })
  t.notOk('d' in jwk, 'never the private part')
  const key = createPublicKey({ key: jwk, format: 'jwk' })
  const [h, p, s] = jws.split('.')
  t.ok(verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url')), 'node:crypto verifies the signature')
  t.same(createVerifier({ key: key.export({ format: 'pem', type: 'spki' }).toString(), algorithms: ['ES256'] })(jws), payload, 'fast-jwt too')
  const tampered = `${h}.${Buffer.from(JSON.stringify({ ...payload, valor: { original: '0.01' } })).toString('base64url')}.${s}`
  t.throws(() => createVerifier({ key: key.export({ format: 'pem', type: 'spki' }).toString(), algorithms: ['ES256'] })(tampered), 'a changed payload does not verify')
})

t.test('a location that serves no charge is 404, one whose charge can no longer be paid 410, both CobPayloadNaoEncontrado', async t => {
  const app = await buildTestApp(t)
  const call = client(app, await oauthToken(app))
  const loc = (await call('POST', '/v2/loc', { tipoCob: 'cob' })).json()
  const check = async (path: string, status: number) => {
    const res = await app.inject({ method: 'GET', url: path })
    t.equal(res.statusCode, status, path)
    t.equal(res.json().type, `${PROBLEM_TYPE}CobPayloadNaoEncontrado`)
    checkAnswer(t, res, 'GET', '/{pixUrlAccessToken}')
  }
  await check(pathOf(loc.location), 404)
  await check('/qr/v2/00000000000000000000000000000000', 404)
  await check('/qr/v2/not-a-token', 404)
  const paid = (await call('PUT', `/v2/cob/${aTxid(1)}`, cobBody())).json()
  await payCode(app, paid.pixCopiaECola)
  await check(pathOf(paid.location), 410)
  const expiring = (await call('PUT', `/v2/cob/${aTxid(2)}`, cobBody({ calendario: { expiracao: 60 } }))).json()
  await app.inject({ method: 'POST', url: '/__sandbox/clock/advance', payload: { ms: 60_000 } })
  await check(pathOf(expiring.location), 410)
  const removed = (await call('PUT', `/v2/cob/${aTxid(3)}`, cobBody())).json()
  await call('PATCH', `/v2/cob/${aTxid(3)}`, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })
  await check(pathOf(removed.location), 410)
})

t.test('the key stays the same across a restart with --data: a JWS served before verifies with the JWKS served after', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'pix-apipix-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const config = { data: join(dir, 'state.json'), seed: 'key-seed', clock: 'frozen' as const, clockStart: T0 }
  const first = await buildApp({ config })
  const cob = (await first.inject({ method: 'PUT', url: `/v2/cob/${aTxid(1)}`, headers: bearer(await oauthToken(first)), payload: cobBody() })).json()
  const jws = (await first.inject({ method: 'GET', url: pathOf(cob.location) })).body
  const before = (await first.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json()
  await first.close()
  const second = await buildApp({ config })
  t.teardown(() => second.close())
  const after = (await second.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json()
  t.same(after, before)
  const key = createPublicKey({ key: after.keys[0], format: 'jwk' })
  const [h, p, s] = jws.split('.')
  t.ok(verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url')))
  t.equal((await second.inject({ method: 'GET', url: pathOf(cob.location) })).statusCode, 200, 'the location serves its charge after the restart')
  // A full reset starts over with a new key.
  await second.inject({ method: 'POST', url: '/__sandbox/reset', payload: {} })
  t.same((await second.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json(), { keys: [] })
})

t.test('the sandbox\'s pay path pays a code whose location it serves, and refuses foreign and unbound ones', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 0 })
  const call = client(app, await oauthToken(app, acc))
  const cob = (await call('PUT', `/v2/cob/${aTxid(1)}`, cobBody())).json()
  const paid = await payCode(app, cob.pixCopiaECola)
  t.equal(paid.statusCode, 201, paid.body)
  t.match(paid.json(), { status: 'CONCLUIDA', amount: 10, txid: aTxid(1) })
  t.same(await balanceOf(app, acc.accountId), { available: 10, blocked: 0, invariantHolds: true })
  t.equal((await payCode(app, cob.pixCopiaECola)).statusCode, 422, 'once only')

  // A code naming a location the sandbox does not serve (another host, the same path) is foreign.
  const foreign = buildBrCode({ location: cob.location.replace(/^localhost:80/, 'pix.example.com'), merchantName: 'LOJA', merchantCity: 'RECIFE', amountCents: 1000 })
  t.equal((await payCode(app, foreign)).statusCode, 404)
  // Unbound, a location serves nothing: its code pays nothing; bound to a new cob, it pays that one.
  const other = (await call('PUT', `/v2/cob/${aTxid(2)}`, cobBody({ valor: { original: '7.00' } }))).json()
  await call('DELETE', `/v2/loc/${other.loc.id}/txid`)
  t.equal((await payCode(app, other.pixCopiaECola)).statusCode, 404)
  const next = (await call('PUT', `/v2/cob/${aTxid(3)}`, cobBody({ valor: { original: '7.00' }, loc: { id: other.loc.id } }))).json()
  t.equal(next.location, other.location)
  t.match((await payCode(app, other.pixCopiaECola)).json(), { txid: aTxid(3) }, 'the location serves the charge bound to it now')
  t.equal((await call('GET', `/v2/cob/${aTxid(2)}`)).json().status, 'ATIVA', 'not the one it served before')

  // A pay-out by QR code of another account pays such a code too.
  const payer = await tokenFor(app)
  const fourth = (await call('PUT', `/v2/cob/${aTxid(4)}`, cobBody({ valor: { original: '3.00' } }))).json()
  const qr = await app.inject({ method: 'POST', url: '/api/pix/cash-out-qrcode', headers: bearer(payer), payload: { value: 3, qrCode: fourth.pixCopiaECola, externalId: 'qr-apipix' } })
  t.equal(qr.statusCode, 201, qr.body)
  await app.inject({ method: 'POST', url: '/__sandbox/clock/advance', payload: { ms: 1000 } })
  t.equal((await call('GET', `/v2/cob/${aTxid(4)}`)).json().status, 'CONCLUIDA')
})

t.test('the control plane lists the locations of every account or one, newest first, with the charge each serves', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const call = client(app, await oauthToken(app, acc))
  const alone = (await call('POST', '/v2/loc', { tipoCob: 'cobv' })).json()
  const cob = (await call('PUT', `/v2/cob/${aTxid(1)}`, cobBody())).json()
  const other = (await client(app, await oauthToken(app))('POST', '/v2/loc', { tipoCob: 'cob' })).json()
  const list = async (query = '') => {
    const res = await app.inject({ method: 'GET', url: `/__sandbox/locations${query}` })
    t.equal(res.statusCode, 200)
    return res.json().locations
  }
  const charge = (await app.inject({ method: 'GET', url: `/__sandbox/transactions?accountId=${acc.accountId}&kind=COB` })).json().transactions[0]
  t.same(await list(`?accountId=${acc.accountId}`), [
    { id: cob.loc.id, location: cob.location, tipoCob: 'cob', criacao: T0, txid: aTxid(1), accountId: acc.accountId, chargeId: charge.id },
    { ...alone, accountId: acc.accountId },
  ])
  t.same((await list()).map((l: { id: number }) => l.id), [other.id, cob.loc.id, alone.id], 'every account\'s')
  await call('DELETE', `/v2/loc/${cob.loc.id}/txid`)
  t.notOk('chargeId' in (await list(`?accountId=${acc.accountId}`))[0], 'unbound: it serves no charge')
  t.equal((await app.inject({ method: 'GET', url: '/__sandbox/locations?accountId=x' })).statusCode, 400)
})

t.test('a reset of the account takes its locations with it: their payloads are gone, other accounts\' stay', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const mine = (await client(app, await oauthToken(app, acc))('PUT', `/v2/cob/${aTxid(1)}`, cobBody())).json()
  const other = (await client(app, await oauthToken(app))('PUT', `/v2/cob/${aTxid(1)}`, cobBody())).json()
  await app.inject({ method: 'POST', url: '/__sandbox/reset', payload: { accountId: acc.accountId } })
  t.equal((await app.inject({ method: 'GET', url: pathOf(mine.location) })).statusCode, 404)
  t.equal((await app.inject({ method: 'GET', url: pathOf(other.location) })).statusCode, 200)
  t.same(Object.values(app.sandbox.store.data.locations).map(l => l.accountId), [1])
})

t.test('a location whose creation was rolled back serves nothing, also once another location takes its id', async t => {
  const app = await buildTestApp(t)
  const { store, locations } = app.sandbox
  const account = store.account(1)!
  let undone = ''
  t.throws(() => store.transact(() => {
    undone = locations.create(account, 'cob', 'localhost').location
    throw new Error('a step after it failed')
  }), /a step after it failed/)
  const token = undone.slice(undone.lastIndexOf('/') + 1)
  t.equal(locations.byTokenOf(token), undefined)
  const taken = locations.create(account, 'cob', 'localhost')
  t.equal(taken.id, 1, 'the id came back with the rollback')
  t.equal(locations.byTokenOf(token), undefined, 'the token of the location that was undone finds nothing')
  t.equal(locations.byTokenOf(taken.location.slice(taken.location.lastIndexOf('/') + 1))?.id, 1)
})

t.test('snapshots carry locations and the key, and refuse a broken location', async t => {
  const app = await buildTestApp(t)
  const call = client(app, await oauthToken(app))
  const cob = (await call('PUT', `/v2/cob/${aTxid(1)}`, cobBody())).json()
  await app.inject({ method: 'GET', url: pathOf(cob.location) })
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  t.equal(Object.keys(snapshot.locations).length, 1)
  t.equal(Object.keys(snapshot.signingKeys).length, 1)
  const jwks = (await app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json()
  t.equal((await app.inject({ method: 'POST', url: '/__sandbox/reset', payload: {} })).statusCode, 200)
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })).statusCode, 200)
  t.same((await app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json(), jwks, 'the key comes back with the snapshot')
  t.equal((await app.inject({ method: 'GET', url: pathOf(cob.location) })).statusCode, 200, 'the location serves its charge again')
  const broken = structuredClone(snapshot)
  broken.locations['1'].tipoCob = 'cobr'
  const refused = await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: broken })
  t.equal(refused.statusCode, 400)
  t.match(refused.body, 'locations/1/tipoCob')
  const badScopes = structuredClone(snapshot)
  badScopes.accounts['1'].scopes = ['cob.delete']
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: badScopes })).statusCode, 400, 'a scope API Pix does not have')
  // A document written before locations existed loads, with none.
  const old = structuredClone(snapshot)
  delete old.locations
  delete old.signingKeys
  delete old.accounts['1'].scopes
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: old })).statusCode, 200)
  t.same((await app.inject({ method: 'GET', url: '/__sandbox/accounts/1' })).json().scopes, [...OAUTH_SCOPES], 'every scope by default: API Pix\'s 24 and Efí\'s')
})
