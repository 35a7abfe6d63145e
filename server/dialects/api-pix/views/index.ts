import type { Sandbox } from '../../../sandbox.js'
import type { CobR, Recurrence, RecLocation, SolicRec, Transaction, TransactionOf } from '../../../store/state.js'
import type { CobVAmounts } from '../../../domain/cobv.js'
import type { ReceivedPixViews } from '../../../ports.js'
import { cobPayload, cobView, cobvPayload, cobvView, pixView, type ChargeViewDeps } from './cob.js'
import { cobrNotification, cobrView, type CobRViewDeps } from './cobr.js'
import { recCompleta, recGerada, recLocationView, recPayload, solicRecView } from './rec.js'

/** What API Pix's views read besides the records: the sandbox's services, read only. */
export type ApiPixViewSources = Pick<Sandbox, 'store' | 'fixtures' | 'refunds' | 'apiPixCobs' | 'apiPixPix' | 'locations' | 'recurrences'>

/** What the views of charges and received PIX read: the services, as they are (no closure between). */
export const chargeViewDeps = (sb: ApiPixViewSources): ChargeViewDeps & CobRViewDeps =>
  ({ store: sb.store, fixtures: sb.fixtures, refunds: sb.refunds, cobs: sb.apiPixCobs, locations: sb.locations, pix: sb.apiPixPix })

/**
 * API Pix's answers (docs/api-pix.md), bound to what they read: each route of the dialect, its
 * notifier and the control plane's API Pix pages render a record through these.
 */
export function apiPixViews (sb: ApiPixViewSources) {
  const charges = chargeViewDeps(sb)
  const account = (r: { accountId: number }) => sb.store.account(r.accountId)!
  const pix = (tx: Transaction) => pixView(charges, tx)
  return {
    cob: (charge: TransactionOf<'COB'>) => cobView(charges, charge),
    cobPayload: (charge: TransactionOf<'COB'>, now: number) => cobPayload(charges, charge, now),
    cobv: (charge: TransactionOf<'COBV'>) => cobvView(charges, charge),
    cobvPayload: (charge: TransactionOf<'COBV'>, amounts: CobVAmounts, now: number) => cobvPayload(charges, charge, amounts, now),
    pix,
    /** The reads of received PIX (GET /pix) on API Pix: its txid, its view. */
    receivedPix: { txidOf: tx => sb.apiPixPix.txidOf(tx), view: pix } satisfies ReceivedPixViews<ReturnType<typeof pixView>>,
    cobr: (cobr: CobR) => cobrView(sb, cobr),
    cobrNotification: (cobr: CobR) => cobrNotification(sb, cobr),
    /** RecGerada: the answer of POST /rec and PATCH /rec/{idRec}. */
    recGerada: (rec: Recurrence) => recGerada(rec, account(rec), sb.recurrences.locationOf(rec)),
    /** RecCompleta (GET /rec/{idRec}, and GET /rec's items without `txid`): with dadosQR, the code `txid` composes the recurrence with, or its own. */
    recCompleta: (rec: Recurrence, txid?: string) => {
      const view = recCompleta(rec, account(rec), sb.recurrences.locationOf(rec), sb.recurrences.solicitacoesOf(rec))
      const code = sb.recurrences.codeOf(rec, txid)
      return code === undefined ? view : { ...view, dadosQR: code }
    },
    /** RecCompletaPesquisada: an item of GET /rec. */
    recListed: (rec: Recurrence) => recCompleta(rec, account(rec), sb.recurrences.locationOf(rec), sb.recurrences.solicitacoesOf(rec)),
    /** PayloadLocationRecCompleta: its idRec only while it serves a recurrence still there. */
    recLocation: (loc: RecLocation) => recLocationView(sb.recurrences.served(loc) === undefined ? { ...loc, idRec: undefined } : loc),
    recPayload: (rec: Recurrence) => recPayload(rec, account(rec)),
    solicRec: (s: SolicRec) => {
      const rec = sb.store.data.recurrences[s.idRec]
      return solicRecView(s, rec, account(rec))
    },
  }
}

export type ApiPixViews = ReturnType<typeof apiPixViews>
