import type { Test } from 'tap'
import { Clock } from '../../../server/engine/clock.js'
import { Scheduler } from '../../../server/engine/scheduler.js'
import { createRng } from '../../../server/domain/ids.js'
import * as ledger from '../../../server/domain/ledger.js'
import { loadFixtures } from '../../../server/fixtures.js'
import type { DomainEvent, DomainEvents } from '../../../server/events.js'
import { GatewayNotifier } from '../../../server/dialects/gateway/notifier.js'
import { Store } from '../../../server/store/store.js'
import type { Account, Mutable, Payer, Transaction, TransactionData } from '../../../server/store/state.js'
import type { WebhookEvent } from '../../../server/webhooks/types.js'

/*
 * What a unit test of one service builds instead of createSandbox: a memory store, the sandbox clock
 * (frozen at T0) and its scheduler, a seeded random stream, the built-in fixtures, and an events port
 * that records what the service emits: the domain events (`said`), and the gateway's webhooks the
 * gateway's notifier makes of them (`emitted`), the payloads an integrator would receive. Neighbours are
 * faked in each test file.
 */

/** 12:00 in São Paulo on a Tuesday. */
export const T0 = Date.parse('2026-03-10T15:00:00.000Z')
export const DAY_MS = 86_400_000

export async function engine (t: Test, now = T0) {
  const clock = new Clock(() => now)
  clock.freeze()
  const store = new Store()
  await store.open()
  const scheduler = new Scheduler({ clock, runJob: run => { store.unit(run) } })
  t.teardown(() => scheduler.close())
  const emitted: WebhookEvent[] = []
  const said: DomainEvent[] = []
  const notifier = new GatewayNotifier({ store, clock, webhooks: { emit: e => { emitted.push(e) } } })
  const events: DomainEvents = {
    emit: e => {
      said.push(e)
      notifier.notify(e)
    },
  }
  return { clock, store, scheduler, rng: createRng('unit'), fixtures: loadFixtures(), events, emitted, said }
}

/** An account record as AccountService builds one: R$ 5.000,00 available, fee R$ 0,10. */
export function accountRecord (id: number, more: Partial<Mutable<Account>> = {}): Account {
  return {
    id,
    name: `LOJA ${id}`,
    document: '11222333000181',
    ispb: '99999004',
    bankName: 'PIX SANDBOX IP S.A.',
    clientId: `client-${id}`,
    clientSecret: 'secret-secret',
    certificateFingerprints: [],
    certificatePem: '',
    providerGroup: 'C',
    documentCheck: false,
    feeCents: 10,
    limits: { perTransactionCents: 100_000, dailyCents: 150_000, nightlyCents: 10_000 },
    cashInMinExpirationSeconds: 30,
    splitFrequency: 'DAILY',
    balance: { availableCents: 500_000, blockedCents: 0 },
    totals: { openingCents: 500_000, adjustmentsCents: 0, settledInCents: 0, settledOutCents: 0, feesCents: 0 },
    createdAt: new Date(T0).toISOString(),
    ...more,
  }
}

export function addAccount (store: Store, id: number, more: Partial<Mutable<Account>> = {}): Account {
  return store.transact(() => store.addAccount(accountRecord(id, more)))
}

export const PAYER: Payer = { name: 'MARIA PAGADORA', document: '52998224725', ispb: '00000000', bankName: 'BANCO DO BRASIL S.A.' }

let nextReceived = 1

/**
 * A PIX the account received and was credited for (kind PIX_IN, CONFIRMED), put in the store the way
 * the charge service leaves one, with the credit on the ledger: what refunds, MED and the central-bank
 * reads work from without the charge service.
 */
export function addReceived (store: Store, input: { accountId: number, amountCents: number, at?: number, payer?: Payer, txid?: string | null, kind?: 'PIX_IN' | 'CASH_IN' }): Transaction {
  const n = nextReceived++
  const at = new Date(input.at ?? T0).toISOString()
  const endToEndId = `E00000000202603101500${String(n).padStart(11, '0')}`
  const kind = input.kind ?? 'PIX_IN'
  const payer = input.payer ?? PAYER
  const data: TransactionData['PIX_IN'] = {
    txid: input.txid ?? null,
    location: null,
    pixCode: null,
    splits: [],
    received: { endToEndId, amountCents: input.amountCents, payer, at },
  }
  return store.transact(() => {
    const tx = {
      id: `received-${n}`,
      seq: store.nextSeq('transaction'),
      accountId: input.accountId,
      kind,
      direction: 'IN',
      status: 'CONFIRMED',
      amountCents: input.amountCents,
      feeCents: 0,
      endToEndId,
      counterpart: { name: payer.name, document: payer.document, ispb: payer.ispb, bankName: payer.bankName, bankCode: null, accountBranch: null, accountNumber: null },
      errorCode: null,
      errorMessage: null,
      data,
      createdAt: at,
      updatedAt: at,
      history: [{ status: 'CONFIRMED', at }],
    } as Mutable<Transaction>
    const added = store.addTransaction(tx, undefined, [`e2e-in:${endToEndId}`])
    store.ledger(input.accountId, a => ledger.creditIncoming(a, input.amountCents))
    return added
  })
}

/** A liquidated pay-out (CASH_OUT, CONFIRMED) as the pay-out service leaves one, its money gone from the account. */
export function addPayout (store: Store, input: { accountId: number, amountCents: number }): Transaction {
  const n = nextReceived++
  const at = new Date(T0).toISOString()
  return store.transact(() => {
    const tx = {
      id: `payout-${n}`,
      seq: store.nextSeq('transaction'),
      accountId: input.accountId,
      kind: 'CASH_OUT',
      direction: 'OUT',
      status: 'CONFIRMED',
      amountCents: input.amountCents,
      feeCents: 0,
      endToEndId: `E99999004202603101500${String(n).padStart(11, '0')}`,
      counterpart: { name: 'JOAO', document: '52998224725', ispb: '60701190', bankName: 'ITAU UNIBANCO S.A.', bankCode: '341', accountBranch: '0001', accountNumber: '1234567-8', key: 'joao@example.com' },
      errorCode: null,
      errorMessage: null,
      data: { keyType: 'EMAIL', name: 'JOAO', document: '52998224725' },
      createdAt: at,
      updatedAt: at,
      history: [{ status: 'CONFIRMED', at }],
    } as Mutable<Transaction>
    const added = store.addTransaction(tx)
    store.ledger(input.accountId, a => ledger.debitImmediately(a, input.amountCents))
    return added
  })
}
