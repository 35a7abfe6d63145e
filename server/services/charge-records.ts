import { Refusal } from '../errors/refusal.js'
import { CHARGE_KINDS, isKind, type Account, type ChargeData, type ChargeOfTxid, type DeepReadonly, type Draft, type ReceivedPayment, type Transaction } from '../store/state.js'

/*
 * Reading a charge record (CASH_IN, COB, PIX_IN, COBV): shared by the charge and split services, refunds, MED, the
 * received-PIX view and the central-bank reads; apart from the service, so that the view (which the
 * service uses) reads them without an import circle.
 */

/** The `data` of a charge (CASH_IN, COB, PIX_IN, COBV); another kind here is a bug, not an input. */
export function chargeData (tx: Transaction): DeepReadonly<ChargeData> {
  if (isKind(tx, CHARGE_KINDS)) return tx.data
  throw new Error(`transaction ${tx.id} is a ${tx.kind}, not a charge`)
}

/** The same, writable, for a charge being changed inside `Store.update`. */
export function chargeDraft (tx: Draft<Transaction>): ChargeData {
  if (isKind(tx, CHARGE_KINDS)) return tx.data
  throw new Error(`transaction ${tx.id} is a ${tx.kind}, not a charge`)
}

/** The received payment of a transaction, only when its money really arrived (credited). */
export function receivedOf (tx: Transaction): DeepReadonly<ReceivedPayment> | undefined {
  const credited = (tx.kind === 'CASH_IN' && tx.status === 'CONFIRMED') ||
    ((tx.kind === 'COB' || tx.kind === 'COBV') && tx.status === 'CONCLUIDA') ||
    (tx.kind === 'PIX_IN' && tx.status === 'CONFIRMED')
  return credited ? chargeData(tx).received : undefined
}

/** The receiver's key of a cob or a cobv: the one it names, else its account's document key (BACEN's answers always name one). */
export function cobChave (charge: Transaction, holder: Account | undefined): string {
  return chaveOf(charge) ?? holder?.document ?? ''
}

/** The payload location a cob or a cobv was created at (its `loc.id`); none for any other kind. */
export function locIdOf (tx: Transaction): number | undefined {
  if (tx.kind === 'COBV') return tx.data.cobv.locId
  return tx.kind === 'COB' ? tx.data.cob.locId : undefined
}

/** The receiver's key a charge names (a cob's or a cobv's `chave`, the key of the static code a PIX paid), when it names one. */
export function chaveOf (tx: Transaction): string | undefined {
  if (tx.kind === 'COBV') return tx.data.cobv.chave
  if (tx.kind === 'PIX_IN' && tx.data.chave !== undefined) return tx.data.chave
  return chargeData(tx).cob?.chave
}

/** How each kind of charge a txid names is called, as the refusal of a txid in use says. */
const NAMED = { cob: 'uma cobrança imediata (cob)', cobv: 'uma cobrança com vencimento (cobv)', cobr: 'uma cobrança recorrente (cobr)' } as const

/** API Pix's name of a charge's kind: cob, cobv or cobr. */
export function txidKind (charge: ChargeOfTxid): keyof typeof NAMED {
  if (!('kind' in charge)) return 'cobr'
  return charge.kind === 'COBV' ? 'cobv' : 'cob'
}

/**
 * A txid another charge of the account holds, whatever its kind (docs/api-pix.md, "One txid, one
 * charge"). On API Pix, `entity` names the field as its violations do (`cob.txid`, `cobv.txid`, in
 * the words of the YAML's `cobr.txid` "encontra-se em uso"); the gateway has no violations.
 */
export function txidInUse (txid: string, holder: ChargeOfTxid, entity?: 'cob' | 'cobv'): Refusal {
  const why = `o txid ${txid} é de ${NAMED[txidKind(holder)]} desta conta`
  return entity === undefined
    ? new Refusal('COB_TXID_EXISTS', `A cobrança com txid ${txid} já existe: ${why}`)
    : new Refusal('COB_TXID_EXISTS', `O campo ${entity}.txid encontra-se em uso: ${why}`, { fields: [`${entity}.txid`] })
}
