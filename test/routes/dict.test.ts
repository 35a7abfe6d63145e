import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../../server/app.js'
import type { FastifyInstance } from 'fastify'
import { buildTestApp, balanceOf, newAccount, bearer, tokenFor } from '../helpers/app.js'
import { recordEmits, cashOutEvents, advance, transaction, BLOCKED_KEY } from '../helpers/payouts.js'

const KEY = '+5511987654321' // ANA PEREIRA, CPF 65162559202, NU PAGAMENTOS (18236120)
let n = 0
const uuid = (): string => `3f2b8c1e-9a4d-4e7b-8c2a-${String(++n).padStart(12, '0')}`

async function transfer (app: FastifyInstance, token: string, body: Record<string, unknown>, opts: { key?: string | null, scenario?: string } = {}) {
  const key = opts.key === undefined ? uuid() : opts.key
  return app.inject({
    method: 'POST',
    url: '/dict/pix',
    headers: { ...bearer(token), ...(key !== null ? { 'x-idempotency-key': key } : {}), ...(opts.scenario ? { 'x-sandbox-scenario': opts.scenario } : {}) },
    payload: { pixKey: KEY, payment: { currency: 'BRL', amount: 10 }, ...body },
  })
}

t.test('a NORM transfer answers PENDING with a provisional id, reserves amount + fee and sends TRANSFER on settlement', async t => {
  const app = await buildTestApp(t)
  const emitted = recordEmits(app)
  const acc = await newAccount(app, { balance: 100, fee: 0.5 })
  const key = uuid()
  const res = await transfer(app, acc.token, { payment: { currency: 'BRL', amount: 12.34 }, description: 'aluguel', paymentFlow: 'INTERNAL' }, { key })
  t.equal(res.statusCode, 201)
  const body = res.json()
  const tx = await transaction(app, body.id)
  t.same(body, { endToEndId: tx.id, eventDate: '2026-03-10T15:00:00.000Z', id: tx.seq, payment: { amount: 12.34 }, type: 'PENDING' })
  t.same(await balanceOf(app, acc.accountId), { available: 87.16, blocked: 12.84, invariantHolds: true })

  await advance(app, 50)
  t.same(await balanceOf(app, acc.accountId), { available: 87.16, blocked: 0, invariantHolds: true })
  const settled = await transaction(app, tx.id)
  t.equal(settled.status, 'COMPLETED')
  t.match(settled.endToEndId, /^E99999004202603101500[0-9A-Za-z]{11}$/)
  const events = cashOutEvents(emitted, tx.id)
  t.equal(events.length, 1)
  t.same(events[0].payload, {
    type: 'TRANSFER',
    data: {
      id: tx.seq,
      txId: null,
      pixKey: KEY,
      status: 'LIQUIDATED',
      payment: { amount: '12.34', currency: 'BRL' },
      endToEndId: settled.endToEndId,
      creditDebitType: 'DEBIT',
      idempotencyKey: key,
      creditorAccount: { name: 'ANA PEREIRA', document: '***.625.592-**', ispb: '18236120' },
      remittanceInformation: 'aluguel',
    },
  })
})

t.test('HIGH priority needs a valid creditorDocument and settles at once', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 100, fee: 0 })
  const missing = await transfer(app, acc.token, { priority: 'HIGH' })
  t.equal(missing.statusCode, 400)
  t.same(missing.json(), { statusCode: 400, message: 'creditorDocument é obrigatório quando priority é HIGH', error: 'Bad Request' })
  const invalid = await transfer(app, acc.token, { priority: 'HIGH', creditorDocument: '65162559200' })
  t.equal(invalid.statusCode, 400)
  const ok = await transfer(app, acc.token, { priority: 'HIGH', creditorDocument: '65162559202' })
  t.equal(ok.statusCode, 201)
  t.equal((await transaction(app, ok.json().id)).dueAt, '2026-03-10T15:00:00.000Z', 'due now, not after the queue delay')
  await advance(app, 0)
  t.equal((await transaction(app, ok.json().id)).status, 'COMPLETED')
})

t.test('x-idempotency-key is required and must be a UUID v4 (400, simple shape)', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const missing = await transfer(app, acc.token, {}, { key: null })
  t.equal(missing.statusCode, 400)
  t.same(Object.keys(missing.json()).sort(), ['error', 'message', 'statusCode'])
  t.match(missing.json().message, /x-idempotency-key/)
  for (const key of ['not-a-uuid', 'a8098c1a-f86e-11da-bd1a-00112444be1e']) {
    t.equal((await transfer(app, acc.token, {}, { key })).statusCode, 400, key)
  }
  t.same(await balanceOf(app, acc.accountId), { available: 10000, blocked: 0, invariantHolds: true })
})

t.test('invalid key, amount, expiration or ispbDeny: 400 and nothing created', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ pixKey: '11987654321' }, /Chave PIX inválida/], // a phone without +55 is no directory key
    [{ pixKey: 'nobody@@example.com' }, /Chave PIX inválida/],
    [{ payment: { currency: 'BRL', amount: 10.123 } }, /2 casas decimais/],
    [{ payment: { currency: 'BRL', amount: 0 } }, /payment.amount/],
    [{ payment: { currency: 'BRL' } }, /payment.amount é obrigatório/],
    [{ expiration: 0 }, /expiration/],
    [{ expiration: 10801 }, /expiration/],
    [{ ispbDeny: ['123'] }, /ispbDeny/],
    [{ priority: 'URGENT' }, /priority/],
  ]
  for (const [body, message] of cases) {
    const res = await transfer(app, acc.token, body)
    t.equal(res.statusCode, 400, JSON.stringify(body))
    t.match(res.json().message, message)
  }
  t.same((await app.inject({ method: 'GET', url: `/__sandbox/transactions?accountId=${acc.accountId}` })).json().transactions, [])
})

t.test('422: key not in the directory, KEY_NOT_FOUND, institution in ispbDeny, insufficient balance', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app, { balance: 10, fee: 0.5 })
  const cases: Array<[Record<string, unknown>, string | undefined, RegExp]> = [
    [{ pixKey: 'ninguem@example.org' }, undefined, /não encontrada/],
    [{}, 'KEY_NOT_FOUND', /não encontrada/],
    [{ ispbDeny: ['00000000', '18236120'] }, undefined, /ispbDeny/],
    [{ payment: { currency: 'BRL', amount: 9.51 } }, undefined, /Saldo insuficiente/],
    [{ payment: { currency: 'BRL', amount: 1 } }, 'INSUFFICIENT_FUNDS', /Saldo insuficiente/],
  ]
  for (const [body, scenario, message] of cases) {
    const res = await transfer(app, acc.token, body, { scenario })
    t.equal(res.statusCode, 422, `${JSON.stringify(body)} ${scenario ?? ''}`)
    t.same(Object.keys(res.json()).sort(), ['error', 'message', 'statusCode'])
    t.match(res.json().message, message)
  }
  t.same(await balanceOf(app, acc.accountId), { available: 10, blocked: 0, invariantHolds: true })
  const exact = await transfer(app, acc.token, { payment: { currency: 'BRL', amount: 9.5 }, ispbDeny: ['00000000'] })
  t.equal(exact.statusCode, 201, 'value + fee exactly available, other institutions denied')
})

t.test('a repeat with the same idempotency key returns the same transfer and creates nothing', async t => {
  const app = await buildTestApp(t)
  const emitted = recordEmits(app)
  const acc = await newAccount(app, { balance: 100, fee: 0 })
  const key = uuid()
  const first = await transfer(app, acc.token, {}, { key })
  const again = await transfer(app, acc.token, { payment: { currency: 'BRL', amount: 99 } }, { key })
  t.equal(again.statusCode, first.statusCode)
  t.equal(again.body, first.body)
  await advance(app, 50)
  const afterSettlement = await transfer(app, acc.token, {}, { key })
  t.equal(afterSettlement.body, first.body, 'still the same answer once settled')
  t.same(await balanceOf(app, acc.accountId), { available: 90, blocked: 0, invariantHolds: true })
  t.equal(cashOutEvents(emitted).length, 1)
  const other = await newAccount(app, { balance: 100, fee: 0 })
  const theirs = await transfer(app, other.token, {}, { key })
  t.equal(theirs.statusCode, 201)
  t.not(theirs.json().id, first.json().id, 'idempotency keys are per account')
})

t.test('an idempotency key is one key in any case, also racing, after a restart and across a snapshot import', async t => {
  const app = await buildTestApp(t)
  const emitted = recordEmits(app)
  const acc = await newAccount(app, { balance: 100, fee: 0 })
  const key = 'a3f2b8c1-9a4d-4e7b-8c2a-00000000abcd'
  const first = await transfer(app, acc.token, {}, { key: key.toUpperCase() })
  t.equal(first.statusCode, 201)
  const lower = await transfer(app, acc.token, {}, { key })
  t.equal(lower.body, first.body, 'the lower-case key returns the transfer the upper-case one created')
  const mixed = await transfer(app, acc.token, {}, { key: 'A3F2B8C1-9a4d-4E7B-8c2a-00000000ABcd' })
  t.equal(mixed.body, first.body, 'and so does a mixed-case one')
  t.same(await balanceOf(app, acc.accountId), { available: 90, blocked: 10, invariantHolds: true }, 'one transfer reserved, not three')
  const tx = await transaction(app, first.json().id)
  t.equal(tx.idempotencyKey, key, 'stored in canonical (lower-case) form')

  // Racing repeats in different cases: exactly one transfer.
  const raced = 'b4e7c9d0-1a2b-4c3d-9e8f-0000000000ff'
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) =>
    transfer(app, acc.token, {}, { key: i % 2 === 0 ? raced : raced.toUpperCase() })))
  t.same(new Set(answers.map(a => a.body)).size, 1, '20 racing repeats in two cases answer one transfer')
  t.same(await balanceOf(app, acc.accountId), { available: 80, blocked: 20, invariantHolds: true })

  // A state whose record holds the key as the client typed it (written before keys were canonical):
  // the import indexes it canonically, so any case still finds it.
  const snapshot = (await app.inject({ method: 'GET', url: '/__sandbox/snapshot' })).json()
  snapshot.transactions[first.json().endToEndId].idempotencyKey = key.toUpperCase()
  t.equal((await app.inject({ method: 'PUT', url: '/__sandbox/snapshot', payload: snapshot })).statusCode, 200)
  // The import is a new life of the account: a token issued before it no longer counts.
  const afterImport = await transfer(app, await tokenFor(app, acc), {}, { key })
  t.equal(afterImport.body, first.body, 'after a snapshot import the key is still the same transfer')
  await advance(app, 50)
  t.same(await balanceOf(app, acc.accountId), { available: 80, blocked: 0, invariantHolds: true })
  t.equal(cashOutEvents(emitted).length, 2, 'two transfers in all')
  const racedEvent = cashOutEvents(emitted).find(e => e.transactionId === answers[0].json().endToEndId)
  t.equal((racedEvent!.payload as { data: { idempotencyKey: string } }).data.idempotencyKey, raced, 'the TRANSFER webhook carries the canonical key')
})

t.test('after a restart with --data, a repeat in another case returns the original transfer', async t => {
  const dir = mkdtempSync(join(tmpdir(), 'pix-idem-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const config = { data: join(dir, 'state.json'), seed: 'idem', clock: 'frozen' as const, clockStart: '2026-03-10T15:00:00.000Z', jwtSecret: 'idempotency-test-jwt-secret' }
  const key = 'c5d6e7f8-1a2b-4c3d-8e9f-00000000dead'
  const before = await buildApp({ config })
  const acc = await newAccount(before, { balance: 100, fee: 0 })
  const first = await transfer(before, acc.token, {}, { key: key.toUpperCase() })
  t.equal(first.statusCode, 201)
  await before.close()
  const after = await buildApp({ config })
  t.teardown(() => after.close())
  const again = await transfer(after, acc.token, {}, { key })
  t.equal(again.body, first.body, 'the same transfer, not a second payment')
  t.same(await balanceOf(after, acc.accountId), { available: 90, blocked: 10, invariantHolds: true })
})

t.test('a NORM transfer still queued after expiration is cancelled; within it, it settles', async t => {
  const app = await buildTestApp(t)
  const emitted = recordEmits(app)
  const acc = await newAccount(app, { balance: 100, fee: 1 })
  const late = await transfer(app, acc.token, { expiration: 10 }, { scenario: 'SETTLEMENT_DELAY;ms=20000' })
  const inTime = await transfer(app, acc.token, { expiration: 30 }, { scenario: 'SETTLEMENT_DELAY;ms=20000' })
  t.same(await balanceOf(app, acc.accountId), { available: 78, blocked: 22, invariantHolds: true })
  await advance(app, 10_000)
  const cancelled = await transaction(app, late.json().id)
  t.match(cancelled, { status: 'ERROR', errorCode: 'PAYMENT_EXPIRED', updatedAt: '2026-03-10T15:00:10.000Z' })
  t.same(await balanceOf(app, acc.accountId), { available: 89, blocked: 11, invariantHolds: true })
  t.match(cashOutEvents(emitted, cancelled.id)[0].payload, { type: 'TRANSFER', data: { status: 'ERROR', endToEndId: null, errorCode: 'PAYMENT_EXPIRED' } })
  await advance(app, 10_000)
  t.equal((await transaction(app, inTime.json().id)).status, 'COMPLETED')
  t.same(await balanceOf(app, acc.accountId), { available: 89, blocked: 0, invariantHolds: true })
})

t.test('asynchronous failures of a directory transfer: a blocked destination and the scenarios', async t => {
  const app = await buildTestApp(t)
  const emitted = recordEmits(app)
  const acc = await newAccount(app, { balance: 100, fee: 0 })
  const blocked = await transfer(app, acc.token, { pixKey: BLOCKED_KEY })
  const timeout = await transfer(app, acc.token, {}, { scenario: 'SETTLEMENT_TIMEOUT' })
  await advance(app, 50)
  t.equal((await transaction(app, blocked.json().id)).errorCode, 'BLOCKED_ACCOUNT')
  t.equal((await transaction(app, timeout.json().id)).errorCode, 'SETTLEMENT_TIMEOUT')
  t.same(await balanceOf(app, acc.accountId), { available: 100, blocked: 0, invariantHolds: true })
  t.equal(cashOutEvents(emitted).filter(e => (e.payload as { data: { status: string } }).data.status === 'ERROR').length, 2)
})

t.test('401 without a token, in the simple shape', async t => {
  const app = await buildTestApp(t)
  const res = await app.inject({ method: 'POST', url: '/dict/pix', headers: { 'x-idempotency-key': uuid() }, payload: { pixKey: KEY, payment: { currency: 'BRL', amount: 1 } } })
  t.equal(res.statusCode, 401)
  t.same(Object.keys(res.json()).sort(), ['error', 'message', 'statusCode'])
})
