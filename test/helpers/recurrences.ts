import type { FastifyInstance } from 'fastify'
import type { Test } from 'tap'
import { advance, bearer, buildTestApp, newAccount } from './app.js'
import { oauthToken } from './api-pix.js'
import type { DebitAnswer, RecCancelled, Recurrences, RecurrenceView, SimulatedPayers } from '../../server/ports.js'
import type { RecTerms } from '../../server/domain/rec.js'
import { CANCELAMENTO } from '../../server/domain/rec-lifecycle.js'

/**
 * Pix Automático's recurrences and the payer's simulation as the recurring charges' tests provide them
 * through their ports (server/ports.ts, `Recurrences`, `SimulatedPayers`): approved recurrences held in
 * memory, a cancellation told inside a unit of the store as the real one is, and the payer's answer set
 * per recurrence.
 */
export class TestRecurrences implements Recurrences {
  private readonly recs = new Map<string, RecurrenceView>()
  private readonly listeners: Array<(cancelled: RecCancelled) => void> = []
  private app?: FastifyInstance

  /** The app whose store a cancellation runs in. */
  attach (app: FastifyInstance): void { this.app = app }

  recurrence (accountId: number, idRec: string): RecurrenceView | null {
    const rec = this.recs.get(idRec)
    return rec !== undefined && rec.accountId === accountId ? rec : null
  }

  onCancelled (listener: (cancelled: RecCancelled) => void): void { this.listeners.push(listener) }

  /** An APROVADA recurrence of the account, monthly from `dataInicial` unless the terms say otherwise. */
  approve (accountId: number, idRec: string, terms: Partial<RecTerms> = {}, extra: Partial<RecurrenceView> = {}): RecurrenceView {
    const rec: RecurrenceView = {
      idRec,
      accountId,
      status: 'APROVADA',
      terms: {
        vinculo: { contrato: 'CONTRATO-1', devedor: { cpf: '52998224725', nome: 'MARIA PAGADORA' } },
        calendario: { dataInicial: '2026-03-20', dataFinal: '2027-03-20', periodicidade: 'MENSAL' },
        valor: {},
        politicaRetentativa: 'PERMITE_3R_7D',
        ...terms,
      },
      ativacao: { tipoJornada: 'JORNADA_2' },
      pagador: { ispbParticipante: '60701190', cpf: '52998224725' },
      ...extra,
    }
    this.recs.set(idRec, rec)
    return rec
  }

  /** The recurrence cancelled by its receiver: its charges hear of it inside the unit that cancels it. */
  cancel (idRec: string): void {
    const rec = this.recs.get(idRec)
    if (rec === undefined || this.app === undefined) throw new Error(`no recurrence ${idRec}`)
    this.app.sandbox.store.transact(() => {
      const cancelled: RecurrenceView = { ...rec, status: 'CANCELADA' }
      this.recs.set(idRec, cancelled)
      for (const listener of this.listeners) listener({ recurrence: cancelled, cancelamento: CANCELAMENTO.rec.USUARIO_RECEBEDOR })
    })
  }
}

/** The payer's simulation: PAGA unless a recurrence's answer was set. */
export class TestPayers implements SimulatedPayers {
  readonly answers = new Map<string, DebitAnswer>()
  debitAnswer (_accountId: number, idRec: string): DebitAnswer { return this.answers.get(idRec) ?? 'PAGA' }
}

/** The recurrence every charge of the tests belongs to (approved for the test's account by `cobrApp`). */
export const ID_REC = 'RR1234567820260310abcdefghijk'

/** A CobRSolicitada of ID_REC due on Friday 2026-03-20, ten days after the tests' T0. */
export const cobrBody = (over: Record<string, unknown> = {}) => ({
  idRec: ID_REC,
  infoAdicional: 'Assinatura de março',
  calendario: { dataDeVencimento: '2026-03-20' },
  valor: { original: '49.90' },
  ajusteDiaUtil: true,
  recebedor: { conta: '012682', tipoConta: 'CORRENTE', agencia: '9708' },
  devedor: { email: 'maria@example.com', cep: '89256-140' },
  ...over,
})

/**
 * An app whose recurrences and payer's simulation are the test's, an account with ID_REC approved, and
 * a client of API Pix for it (`call`, with extra headers such as a scenario's).
 */
export async function cobrApp (t: Test) {
  const recurrences = new TestRecurrences()
  const payers = new TestPayers()
  const app = await buildTestApp(t, {}, { pixAutomatico: { recurrences, payers } })
  recurrences.attach(app)
  const acc = await newAccount(app, { name: 'STREAMING LTDA' })
  recurrences.approve(acc.accountId, ID_REC)
  // A token each call: the virtual clock moves days ahead, past a token's lifetime.
  const call = async (method: 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    app.inject({ method, url, headers: { ...bearer(await oauthToken(app, acc)), ...headers }, ...(payload !== undefined ? { payload: payload as object } : {}) })
  return { app, acc, recurrences, payers, call }
}

/** Moves the clock to `instant` (after now), running every step due by then. */
export async function advanceTo (app: FastifyInstance, instant: string): Promise<void> {
  await advance(app, Date.parse(instant) - app.sandbox.clock.now())
}

/** The account's deliveries of `/webhookcobr` (eventType cobr) in the order they were made. */
export async function cobrDeliveries (app: FastifyInstance, accountId: number): Promise<Array<{ status: string, url: string, transactionId: string, body: { cobsr: Array<Record<string, any>> } }>> {
  const res = await app.inject({ method: 'GET', url: `/__sandbox/webhooks/deliveries?accountId=${accountId}&eventType=cobr` })
  return (res.json().deliveries as Array<{ seq: number }>).sort((a, b) => a.seq - b.seq) as any
}
