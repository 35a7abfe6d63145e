import t, { type Test } from 'tap'
import { parseBrCode } from '../../../server/domain/brcode.js'
import { invariantHolds } from '../../../server/domain/ledger.js'
import { MAX_CENTS } from '../../../server/domain/money.js'
import type { ChargeSplits } from '../../../server/ports.js'
import { cashInView, cobView } from '../../../server/dialects/gateway/views.js'
import { receivedView } from '../../../server/routes/sandbox/views.js'
import { ChargeStages } from '../../../server/services/charge-stages.js'
import { ChargeService, type CashInInput } from '../../../server/services/charges.js'
import { ChargePaymentService } from '../../../server/services/charge-payments.js'
import { ReceivedPixService } from '../../../server/services/received-pix.js'
import { chargeData } from '../../../server/services/charge-records.js'
import { SplitService } from '../../../server/services/splits.js'
import type { AppliedScenario } from '../../../scenarios/types.js'
import type { Transaction } from '../../../server/store/state.js'
import { addAccount, engine, PAYER } from './harness.js'
import { Lifecycles } from '../../../server/store/lifecycle.js'
import { ExpiringRefs } from '../../../server/services/expiring-refs.js'

/** What the payments find for the BR Code of a charge, as a payer's bank would read it. */
function lookup (payments: ChargePaymentService, charge: Transaction) {
  const code = parseBrCode(chargeData(charge).pixCode!)
  if (!code.ok) throw new Error(`the charge's code does not parse: ${code.reason}`)
  return payments.chargeForCode(code.value)
}

// The charges, their payments and the PIX received without one, alone: a memory store, the clock and
// scheduler, the events they emit recorded, and a fake for the splits a paid charge hands over. The
// gateway's views read the devoluções of a payment: none here. Account 1 holds R$ 5.000,00.

const DELAY = 50

async function charges (t: Test, splitFrequency: 'IMMEDIATE' | 'HOURLY' | 'DAILY' = 'DAILY', opts: { realSplits?: boolean } = {}) {
  const e = await engine(t)
  addAccount(e.store, 1, { splitFrequency })
  addAccount(e.store, 2)
  // A fake split service records what a paid charge hands it; the tests that follow splits through to
  // their payment take the real one (itself built alone in splits.test.ts).
  const handed: Array<{ chargeId: string, accountId: number }> = []
  const realSplits = opts.realSplits ? new SplitService(e) : null
  const splits: ChargeSplits = realSplits ?? { runSplits: (charge, account) => { handed.push({ chargeId: charge.id, accountId: account.id }) } }
  const received = new ReceivedPixService(e)
  // No refunds here: a payment's stage is read with none settled.
  const stages = new ChargeStages({ store: e.store, refundedCents: () => 0 })
  const payments = new ChargePaymentService({ ...e, config: { settlementDelayMs: DELAY }, splits, received, stages })
  const service = new ChargeService({ ...e, config: { alphanumericCnpj: 'disabled' }, expiringRefs: new ExpiringRefs(e), autoPay: payments.autoPay, stages })
  const account = () => e.store.account(1)!
  const cashIn = (value: number, externalId: string, more: Partial<CashInInput> = {}, scenarios: AppliedScenario[] = []) =>
    service.createCashIn(account(), { transaction: { value, description: 'pedido', externalId }, payer: { fullName: 'CLIENTE', document: '52998224725' }, ...more }, scenarios)
  // The gateway's view of a cob reads the account and the devoluções of its payment (none here).
  const views = { store: e.store, refunds: { refundsOf: () => [] } }
  return { ...e, service, payments, received, account, cashIn, handed, realSplits, views }
}

t.test('a cash-in is a PENDING charge with a BR Code that leads back to it, payable for its amount', async t => {
  const { payments, cashIn } = await charges(t)
  const { charge } = await cashIn(25.5, 'pedido-1')
  t.equal(charge.status, 'PENDING')
  t.equal(charge.amountCents, 2_550)
  const code = parseBrCode(chargeData(charge).pixCode!)
  t.ok(code.ok)
  if (!code.ok) return
  t.equal(code.value.amountCents, undefined, 'the amount is the charge\'s, not in the code')
  t.same(payments.chargeForCode(code.value), { status: 'payable', charge, amountCents: 2_550 })
  t.same(cashInView(charge), {
    transactionId: charge.id,
    correlationId: chargeData(charge).correlationId,
    externalId: 'pedido-1',
    status: 'PENDING',
    pixCode: chargeData(charge).pixCode,
    generateTime: charge.createdAt,
    expirationDate: charge.dueAt,
  })
})

t.test('paying a charge credits the account, confirms it and emits cash_in; it cannot be paid twice', async t => {
  const { payments, store, emitted, cashIn, account } = await charges(t)
  const { charge } = await cashIn(10, 'p')
  const paid = payments.payCharge(charge, { amountCents: 1_000, payer: PAYER })
  const after = store.transaction(paid.id)!
  t.equal(after.status, 'CONFIRMED')
  t.match(after.endToEndId, /^E00000000/, 'an endToEndId of the payer\'s institution')
  t.equal(account().balance.availableCents, 501_000)
  t.equal(account().totals.settledInCents, 1_000)
  t.ok(invariantHolds(account()))
  t.same(emitted.map(e => [e.eventType, e.transactionId]), [['cash_in', charge.id]])
  t.match(emitted[0].payload, { data: { endToEndId: after.endToEndId } })
  t.equal(store.transactionByRef(`e2e-in:${after.endToEndId}`), after, 'refunds and MED find it by its endToEndId')
  t.throws(() => payments.payCharge(after, { amountCents: 1_000, payer: PAYER }), { code: 'QRCODE_ALREADY_PAID' })
  t.equal(account().balance.availableCents, 501_000, 'credited once')
})

t.test('a payment of another amount, or of nothing, is refused and credits nothing', async t => {
  const { payments, cashIn, account } = await charges(t)
  const { charge } = await cashIn(10, 'p')
  t.throws(() => payments.payCharge(charge, { amountCents: 999, payer: PAYER }), { code: 'PIX_AMOUNT_MISMATCH' })
  t.throws(() => payments.payCharge(charge, { amountCents: 0, payer: PAYER }), { code: 'PIX_INVALID_AMOUNT' })
  t.equal(account().balance.availableCents, 500_000)
  t.equal(charge.status, 'PENDING')
})

t.test('a payment from a pay-out arrives: taken and credited; refused (wrong amount, PAYMENT_ERROR) with nothing credited; unavailable once paid', async t => {
  const { payments, store, cashIn, account } = await charges(t)
  const payment = (charge: Transaction, amountCents: number, endToEndId: string) => ({ chargeId: charge.id, amountCents, payer: PAYER, endToEndId })
  const { charge } = await cashIn(10, 'a')
  t.equal(payments.payments.arrive(payment(charge, 999, 'E0000000020260310150000000000001')), 'refused', 'another amount')
  t.equal(store.transaction(charge.id)!.status, 'PENDING', 'rolled back: the charge is as it was')
  t.equal(payments.payments.arrive(payment(charge, 1_000, 'E0000000020260310150000000000002')), 'taken')
  t.equal(store.transaction(charge.id)!.endToEndId, 'E0000000020260310150000000000002', 'under the payer\'s endToEndId')
  t.equal(account().balance.availableCents, 501_000)
  t.equal(payments.payments.arrive(payment(charge, 1_000, 'E0000000020260310150000000000003')), 'unavailable', 'already paid')
  const failing = (await cashIn(10, 'b', {}, [{ name: 'PAYMENT_ERROR', params: {} }])).charge
  t.equal(payments.payments.arrive(payment(failing, 1_000, 'E0000000020260310150000000000004')), 'refused', 'its provider refuses the confirmation')
  t.equal(store.transaction(failing.id)!.errorCode, 'PAYMENT_ERROR')
  t.equal(payments.payments.arrive({ ...payment(failing, 1_000, 'E0000000020260310150000000000005'), chargeId: 'no-such-charge' }), 'unavailable')
  t.equal(account().balance.availableCents, 501_000, 'credited once')
})

t.test('cash-in refusals: bad fields all at once, a used externalId, an expiration below the provider\'s minimum', async t => {
  const { cashIn, store } = await charges(t)
  const bad = await cashIn(10, ' ', { payer: { fullName: '', document: '123' } }).catch((err: unknown) => err)
  t.match(bad, { messages: [/externalId/, /fullName/, /payer.document/] }, 'one message per bad field')
  await t.rejects(cashIn(0, 'x'), { code: 'PIX_INVALID_AMOUNT' })
  const { charge } = await cashIn(10, 'same')
  await t.rejects(cashIn(10, 'same'), { code: 'PIX_DUPLICATE_EXTERNAL_ID', details: { externalId: 'same', existingTransactionId: charge.seq } })
  await t.rejects(cashIn(10, 'short', { transaction: { value: 10, description: 'd', externalId: 'short', expirationTime: 29 } }), {
    code: 'PROVIDER_EXPIRATION_BELOW_MINIMUM',
    details: { expirationTime: 29, minimumExpirationTime: 30 },
  })
  await t.rejects(cashIn(10, 'down', {}, [{ name: 'PROVIDER_UNAVAILABLE', params: {} }]), { code: 'PROVIDER_UNAVAILABLE', details: { retryable: true } })
  t.equal(store.transactionsOf(1).length, 1, 'only the first charge was stored')
})

t.test('an unpaid cash-in expires at its due time on the scheduler and can no longer be paid', async t => {
  const { payments, store, scheduler, cashIn } = await charges(t)
  const { charge } = await cashIn(10, 'p', { transaction: { value: 10, description: 'd', externalId: 'p', expirationTime: 60 } })
  await scheduler.advance(59_999)
  t.equal(store.transaction(charge.id)!.status, 'PENDING')
  await scheduler.advance(1)
  const expired = store.transaction(charge.id)!
  t.equal(expired.status, 'ERROR')
  t.equal(expired.errorCode, 'EXPIRED')
  t.equal(lookup(payments, expired)?.status, 'unavailable')
  t.throws(() => payments.payCharge(expired, { amountCents: 1_000, payer: PAYER }), { code: 'QRCODE_NOT_AVAILABLE' })
})

t.test('AUTO_PAY pays the charge after its delay; a load brings the job back after the scheduler lost it', async t => {
  const { service, payments, store, scheduler, cashIn, emitted } = await charges(t)
  const { charge } = await cashIn(10, 'p', {}, [{ name: 'AUTO_PAY', params: { ms: '1000' } }])
  scheduler.clear()
  store.transact(() => new Lifecycles([service, payments]).load())
  await scheduler.advance(999)
  t.equal(store.transaction(charge.id)!.status, 'PENDING')
  await scheduler.advance(1)
  t.equal(store.transaction(charge.id)!.status, 'CONFIRMED')
  t.equal(emitted.length, 1)
})

t.test('PAYMENT_ERROR: the provider fails the confirmation, nothing is credited, the webhook carries the error', async t => {
  const { payments, cashIn, account, emitted, store } = await charges(t)
  const { charge } = await cashIn(10, 'p', {}, [{ name: 'PAYMENT_ERROR', params: {} }])
  payments.payCharge(charge, { amountCents: 1_000, payer: PAYER })
  t.equal(store.transaction(charge.id)!.status, 'ERROR')
  t.equal(store.transaction(charge.id)!.errorCode, 'PAYMENT_ERROR')
  t.equal(account().balance.availableCents, 500_000)
  t.match(emitted[0].payload, { data: { status: 'ERROR' } })
})

t.test('a paid charge hands its splits to the split service once, after the money is credited', async t => {
  const { payments, cashIn, account, handed } = await charges(t)
  const { charge } = await cashIn(100, 'p', { splits: [{ pixKey: 'a@example.com', pixKeyType: 'EMAIL', name: 'A', document: '52998224725', type: 'FIXED', value: 5 }] })
  t.same(handed, [], 'nothing before the payment')
  payments.payCharge(charge, { amountCents: 10_000, payer: PAYER })
  t.same(handed, [{ chargeId: charge.id, accountId: 1 }])
  t.equal(account().balance.availableCents, 500_000 + 10_000, 'the split service (a fake here) took nothing yet')
})

t.test('splits: an immediate one is paid from the received money at once; a DAILY one at midnight in São Paulo', async t => {
  const { service, payments, store, scheduler, cashIn, account, fixtures, realSplits } = await charges(t, 'DAILY', { realSplits: true })
  store.transact(() => store.put('directory', fixtures.directory.find(d => d.key === '52998224725')!))
  const { charge } = await cashIn(100, 'p', {
    splits: [
      { pixKey: 'parceiro@example.com', pixKeyType: 'EMAIL', name: 'PARCEIRO', document: '52998224725', type: 'PERCENTAGE', value: 10, immediate: true },
      { pixKey: '52998224725', pixKeyType: 'CPF', name: 'MARIA DA SILVA', document: '52998224725', type: 'FIXED', value: 5 },
    ],
  })
  payments.payCharge(charge, { amountCents: 10_000, payer: PAYER })
  const splits = () => chargeData(store.transaction(charge.id)!).splits
  t.same(splits().map(s => s.status), ['PAID', 'SCHEDULED'])
  t.equal(account().balance.availableCents, 500_000 + 10_000 - 1_000)
  t.equal(splits()[1].dueAt, '2026-03-11T03:00:00.000Z', 'the next midnight in São Paulo')
  const paidSplit = store.transaction(splits()[0].transactionId!)!
  t.match(paidSplit, { kind: 'SPLIT', status: 'CONFIRMED', direction: 'OUT', amountCents: 1_000, pixKey: 'parceiro@example.com' })

  scheduler.clear()
  store.transact(() => new Lifecycles([service, payments, realSplits!]).load())
  await scheduler.advanceTo(Date.parse('2026-03-11T03:00:00.000Z'))
  t.same(splits().map(s => s.status), ['PAID', 'PAID'], 'rescheduled by a load and paid at midnight')
  const second = store.transaction(splits()[1].transactionId!)!
  t.match(second.counterpart, { name: 'MARIA DA SILVA', ispb: '00000000', bankCode: '001' }, 'a key the directory lists names its bank')
  t.equal(account().balance.availableCents, 500_000 + 10_000 - 1_500)
  t.ok(invariantHolds(account()))
})

t.test('a split the balance no longer covers fails instead of overdrawing the account', async t => {
  const { payments, store, scheduler, cashIn, account } = await charges(t, 'DAILY', { realSplits: true })
  const { charge } = await cashIn(100, 'p', { splits: [{ pixKey: 'a@example.com', pixKeyType: 'EMAIL', name: 'A', document: '52998224725', type: 'FIXED', value: 90 }] })
  payments.payCharge(charge, { amountCents: 10_000, payer: PAYER })
  store.transact(() => store.ledger(1, a => { a.balance.availableCents = 100; a.totals.adjustmentsCents -= 509_900 }))
  await scheduler.advanceTo(Date.parse('2026-03-11T03:00:00.000Z'))
  const split = chargeData(store.transaction(charge.id)!).splits[0]
  t.equal(split.status, 'FAILED')
  t.equal(store.transaction(split.transactionId!)!.errorCode, 'PIX_INSUFFICIENT_BALANCE')
  t.equal(account().balance.availableCents, 100)
})

t.test('splits that add up to more than the charge are refused', async t => {
  const { cashIn } = await charges(t)
  const split = { pixKey: 'a@example.com', pixKeyType: 'EMAIL' as const, name: 'A', document: '52998224725' }
  await t.rejects(cashIn(10, 'a', { splits: [{ ...split, type: 'FIXED', value: 10.01 }] }), { code: 'PIX_SPLIT_AMOUNT_EXCEEDED', details: { splitsTotal: 10.01, value: 10 } })
  await t.rejects(cashIn(10, 'b', { splits: [{ ...split, type: 'PERCENTAGE', value: 60 }, { ...split, type: 'PERCENTAGE', value: 41 }] }), { code: 'PIX_SPLIT_AMOUNT_EXCEEDED', details: { percentageTotal: 101 } })
})

t.test('an unsolicited PIX (PIX_IN) is credited at once with cash_in; money past what an account can hold is refused', async t => {
  const { received, account, emitted, store } = await charges(t)
  const tx = received.receiveUnsolicited(account(), 12.34, { name: 'JOSE', document: '52998224725' }, [])
  t.match(tx, { kind: 'PIX_IN', status: 'CONFIRMED', amountCents: 1_234 })
  t.equal(account().balance.availableCents, 501_234)
  t.same(emitted.map(e => e.eventType), ['cash_in'])
  t.same(receivedView(tx), { transactionId: tx.id, endToEndId: tx.endToEndId, accountId: 1, kind: 'PIX_IN', status: 'CONFIRMED', amount: 12.34, txid: null, errorCode: null })
  t.throws(() => received.receiveUnsolicited(account(), 1, { name: 'X', document: '1' }, []), /payer.document/)
  store.transact(() => store.ledger(1, a => { a.balance.availableCents = MAX_CENTS; a.totals.adjustmentsCents += MAX_CENTS - 501_234 }))
  t.throws(() => received.receiveUnsolicited(account(), 0.01, undefined, []), { code: 'ACCOUNT_LIMIT_REACHED' })
  t.equal(store.transactionsOf(1).length, 1, 'nothing recorded for the refusals')
})

t.test('payByCode: what a payer\'s bank app does with the copy-and-paste code', async t => {
  const { payments, cashIn, store } = await charges(t)
  const { charge } = await cashIn(10, 'p')
  const code = chargeData(charge).pixCode!
  t.throws(() => payments.payByCode({ pixCode: 'garbage' }, () => []), { code: 'INVALID_PIX_CODE' })
  t.throws(() => payments.payByCode({ pixCode: code, amount: 9 }, () => []), { code: 'PIX_AMOUNT_MISMATCH' })
  const paid = payments.payByCode({ pixCode: code, payer: { name: 'ANA', document: '52998224725', ispb: '99999004' } }, () => [])
  t.equal(store.transaction(paid.id)!.status, 'CONFIRMED')
  t.match(chargeData(store.transaction(paid.id)!).received, { amountCents: 1_000, payer: { name: 'ANA', bankName: 'PIX SANDBOX IP S.A.' } }, 'a payer at this institution gets its name')
})

t.test('cob: created ATIVA with its txid, revised (revisao + 1), cancelled, and expired by the scheduler', async t => {
  const { service, store, scheduler, account, views } = await charges(t)
  const body = { calendario: { expiracao: 3600 }, valor: { original: '15.00' }, devedor: { cpf: '52998224725', nome: 'MARIA' } }
  const cob = service.createCob(account(), 'txid0123456789012345678901', body, [])
  t.equal(cob.status, 'ATIVA')
  t.equal(service.cob(account(), 'txid0123456789012345678901'), cob)
  t.throws(() => service.createCob(account(), 'txid0123456789012345678901', body, []), { code: 'COB_TXID_EXISTS' })
  t.throws(() => service.cob(store.account(2)!, 'txid0123456789012345678901'), { code: 'NOT_FOUND' }, 'txids are per account')
  const view = cobView(views, cob)
  t.match(view, { txid: 'txid0123456789012345678901', revisao: 0, status: 'ATIVA', valor: { original: '15.00', modalidadeAlteracao: 0 }, chave: account().document, calendario: { expiracao: 3600 } })

  const revised = service.reviseCob(account(), 'txid0123456789012345678901', { valor: { original: '20.00' } })
  t.equal(revised.amountCents, 2_000)
  t.equal(cobView(views, revised).revisao, 1)
  t.equal(service.reviseCob(account(), 'txid0123456789012345678901', { valor: { original: '20.00' } }).amountCents, 2_000, 'no change, no new revision')
  t.equal(cobView(views, service.cob(account(), 'txid0123456789012345678901')).revisao, 1)

  const generated = service.createCob(account(), null, body, [])
  t.match(chargeData(generated).txid, /^[A-Za-z0-9]{32}$/, 'POST /cob: a txid made here')
  service.reviseCob(account(), chargeData(generated).txid!, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' })
  t.equal(store.transaction(generated.id)!.status, 'REMOVIDA_PELO_USUARIO_RECEBEDOR')
  t.throws(() => service.reviseCob(account(), chargeData(generated).txid!, { valor: { original: '1.00' } }), { code: 'COB_NOT_ACTIVE' })

  await scheduler.advance(3_600_000)
  t.equal(store.transaction(cob.id)!.status, 'REMOVIDA_PELO_PSP', 'expired')
})

t.test('a paid cob shows its payment in pix[], with the devoluções its neighbour lists', async t => {
  const { service, payments, account, views } = await charges(t)
  const cob = service.createCob(account(), 'txidpaid456789012345678901', { calendario: {}, valor: { original: '5.00', modalidadeAlteracao: 1 } }, [])
  const code = parseBrCode(chargeData(cob).pixCode!)
  t.ok(code.ok && code.value.amountCents === undefined, 'the payer chooses the amount: none in the code')
  t.same(lookup(payments, cob), { status: 'payable', charge: cob, amountCents: null })
  payments.payCharge(cob, { amountCents: 777, payer: PAYER })
  const view = cobView(views, service.cob(account(), 'txidpaid456789012345678901'))
  t.equal(view.status, 'CONCLUIDA')
  t.match(view.pix, [{ valor: '7.77', txid: 'txidpaid456789012345678901', devolucoes: [] }])
})
