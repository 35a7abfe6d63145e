import type { IsoDate } from '../domain/business-days.js'
import { Refusal } from '../errors/refusal.js'
import type { DebitAnswer, Ports, SimulatedPayers } from '../ports.js'
import type { AuthorizationAnswer, Mutable, PayerBehaviour, Recurrence } from '../store/state.js'
import { iso } from './history.js'

/**
 * The simulated payers of Pix Automático (docs/api-pix.md, "The payer's side"): how the payer of a
 * recurrence answers when nobody steers it through the control plane, set per receiving account (every
 * payer of its recurrences) or per debtor document, the document's setting first. Owns the
 * `payerBehaviours` collection; recurrences read the answer to a confirmation request here, recurring
 * charges the answer to a debit (`SimulatedPayers`).
 */

/** What the control plane sets (PUT /__sandbox/payer-behaviours). */
export interface BehaviourInput {
  accountId: number
  document?: string
  authorization: AuthorizationAnswer
  rejectionCode?: 'AP13' | 'AP14'
  valorMaximoCents?: number
  debit: DebitAnswer
}

export type PayerSimulationDeps = Pick<Ports, 'store' | 'clock'>

export class PayerSimulation implements SimulatedPayers {
  constructor (private readonly deps: PayerSimulationDeps) {}

  private get store () { return this.deps.store }

  /** Sets how the account's payers (or the debtor `document`) behave, replacing what was set for them. */
  set (input: BehaviourInput): PayerBehaviour {
    if (!this.store.account(input.accountId)) throw new Refusal('ACCOUNT_NOT_FOUND', `Conta ${input.accountId} não encontrada`, { en: `Account ${input.accountId} not found` })
    const now = iso(this.deps.clock.now())
    const existing = this.exactly(input.accountId, input.document)
    return this.store.transact(() => {
      const record: Mutable<PayerBehaviour> = {
        id: existing?.id ?? this.store.nextSeq('payerBehaviour'),
        accountId: input.accountId,
        ...(input.document !== undefined ? { document: input.document } : {}),
        authorization: input.authorization,
        ...(input.rejectionCode !== undefined ? { rejectionCode: input.rejectionCode } : {}),
        ...(input.valorMaximoCents !== undefined ? { valorMaximoCents: input.valorMaximoCents } : {}),
        debit: input.debit,
        createdAt: existing?.createdAt ?? now,
        updatedAt: now,
      }
      return this.store.put('payerBehaviours', record)
    })
  }

  list (accountId?: number): PayerBehaviour[] {
    return Object.values(this.store.data.payerBehaviours)
      .filter(b => accountId === undefined || b.accountId === accountId)
      .sort((a, b) => a.id - b.id)
  }

  remove (id: number): void {
    if (this.store.data.payerBehaviours[id] === undefined) throw new Refusal('NOT_FOUND', `Comportamento ${id} não encontrado`, { en: `Payer behaviour ${id} not found` })
    this.store.transact(() => this.store.remove('payerBehaviours', id))
  }

  private exactly (accountId: number, document: string | undefined): PayerBehaviour | undefined {
    return Object.values(this.store.data.payerBehaviours).find(b => b.accountId === accountId && b.document === document)
  }

  /** How the debtor of a recurrence of the account behaves: the document's setting, else the account's, else none. */
  behaviourOf (rec: Recurrence): PayerBehaviour | undefined {
    const devedor = rec.terms.vinculo.devedor
    const document = 'cpf' in devedor ? devedor.cpf : devedor.cnpj
    return this.exactly(rec.accountId, document) ?? this.exactly(rec.accountId, undefined)
  }

  /** SimulatedPayers: a debit of the recurrence is paid unless a behaviour says otherwise. */
  debitAnswer (accountId: number, idRec: string, _dueDate: IsoDate): DebitAnswer {
    const rec = this.store.data.recurrences[idRec]
    if (rec === undefined || rec.accountId !== accountId) return 'PAGA'
    return this.behaviourOf(rec)?.debit ?? 'PAGA'
  }
}
