import type { Static } from '@sinclair/typebox'
import type { Sandbox } from '../../sandbox.js'
import type { Account, ApiPixCallback, ApiPixWebhook, CobR, CobVBatch, PayloadLocation, RecLocation, Recurrence, TransactionOf } from '../../store/state.js'
import { bacenList, type BacenList } from '../shared/bacen-list.js'
import { chargeList, COB_FILTERS } from '../shared/central-bank-reads.js'
import type { ApiPixCobVListQuery } from './schemas/cobv.js'
import type { CobRListQuery } from './schemas/cobr.js'
import type { LocListQuery } from './schemas/loc.js'
import type { LocRecListQuery, RecListQuery } from './schemas/rec.js'
import type { LoteCobVListQuery } from './schemas/lotecobv.js'
import type { ApiPixWebhookListQuery } from './schemas/webhook.js'

/** What API Pix's lists read: the services' indexed queries of an account's records, and the records. */
export type ListSources = Pick<Sandbox, 'store' | 'charges' | 'locations' | 'recurrences' | 'cobrs' | 'cobvBatches' | 'apiPixWebhooks'>

type Devedor = { readonly cpf?: string, readonly cnpj?: string } | undefined

/**
 * API Pix's lists (docs/api-pix.md) but GET /cob and GET /pix, which the gateway answers too
 * (shared/central-bank-reads.ts): each one's records, an indexed query of the account's (oldest
 * first), and how it reads them (its window, filters, order and echo), answered as every list is
 * (shared/bacen-list.ts). The items are records: the routes show each in API Pix's view.
 */
export function apiPixLists (sb: ListSources) {
  /** The recurrence a recurring charge or a location names, when it is still the account's. */
  const recOf = (accountId: number, idRec: string | undefined): Recurrence | undefined => {
    const rec = idRec === undefined ? undefined : sb.store.data.recurrences[idRec]
    return rec?.accountId === accountId ? rec : undefined
  }
  const convenioOf = (rec: Recurrence | undefined): string | undefined => rec?.terms.recebedor?.convenio
  const byId = (a: { id: number }, b: { id: number }): number => a.id - b.id
  const created = (r: { createdAt: string }): string => r.createdAt

  const cobvCharges = chargeList<'COBV'>({ devedor: tx => tx.data.cobv.devedor, hasLocation: tx => sb.locations.ofCharge(tx) !== undefined })
  /** GET /cobv: as GET /cob, and the batch that created them. */
  const cobvs: BacenList<TransactionOf<'COBV'>, Static<typeof ApiPixCobVListQuery>> = {
    ...cobvCharges,
    filters: { ...cobvCharges.filters, loteCobVId: (tx, id) => tx.data.cobv.loteCobVId === id },
    echo: [...COB_FILTERS, 'loteCobVId'],
  }

  /** GET /lotecobv: by creation, then id (a batch's id is the receiver's own). */
  const batches: BacenList<CobVBatch, Static<typeof LoteCobVListQuery>> = {
    at: created,
    filters: {},
    echo: [],
    order: (a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.id - b.id,
  }

  /** GET /webhook: both bounds optional. */
  const webhooks: BacenList<ApiPixWebhook, Static<typeof ApiPixWebhookListQuery>> = { at: created, filters: {}, echo: [], order: byId }

  /** GET /rec: the debtor's document, the status, the agreement, and whether a location serves it. */
  const recs: BacenList<Recurrence, Static<typeof RecListQuery>> = {
    at: created,
    filters: {
      cpf: (rec, cpf) => (rec.terms.vinculo.devedor as Devedor)?.cpf === cpf,
      cnpj: (rec, cnpj) => (rec.terms.vinculo.devedor as Devedor)?.cnpj === cnpj,
      status: (rec, status) => rec.status === status,
      convenio: (rec, convenio) => convenioOf(rec) === convenio,
      locationPresente: (rec, present) => (sb.recurrences.locationOf(rec) !== undefined) === present,
    },
    echo: [...COB_FILTERS, 'convenio'],
    order: (a, b) => a.createdAt.localeCompare(b.createdAt) || a.idRec.localeCompare(b.idRec),
  }

  /** GET /locrec: whether it serves a recurrence, and that recurrence's agreement. */
  const recLocations: BacenList<RecLocation, Static<typeof LocRecListQuery>> = {
    at: created,
    filters: {
      convenio: (loc, convenio) => convenioOf(sb.recurrences.served(loc)) === convenio,
      idRecPresente: (loc, present) => (sb.recurrences.served(loc) !== undefined) === present,
    },
    echo: ['idRecPresente', 'convenio'],
    order: byId,
  }

  /** GET /cobr: its recurrence, its status; the debtor's document and the agreement are its recurrence's. */
  const cobrs: BacenList<CobR, Static<typeof CobRListQuery>> = {
    at: created,
    filters: {
      idRec: (c, idRec) => c.idRec === idRec,
      status: (c, status) => c.status === status,
      cpf: (c, cpf) => (recOf(c.accountId, c.idRec)?.terms.vinculo.devedor as Devedor)?.cpf === cpf,
      cnpj: (c, cnpj) => (recOf(c.accountId, c.idRec)?.terms.vinculo.devedor as Devedor)?.cnpj === cnpj,
      convenio: (c, convenio) => convenioOf(recOf(c.accountId, c.idRec)) === convenio,
    },
    echo: ['idRec', 'cpf', 'cnpj', 'status', 'convenio'],
    order: byId,
  }

  /** GET /loc: its kind, and whether it serves a charge. */
  const locations: BacenList<PayloadLocation, Static<typeof LocListQuery>> = {
    at: created,
    filters: {
      tipoCob: (loc, tipoCob) => loc.tipoCob === tipoCob,
      txIdPresente: (loc, present) => (sb.locations.charge(loc) !== undefined) === present,
    },
    echo: ['txIdPresente', 'tipoCob'],
    order: byId,
  }

  return {
    cobvs: (account: Account, q: Static<typeof ApiPixCobVListQuery>) => bacenList(q, w => sb.charges.chargesOf(account.id, 'COBV', w), cobvs),
    batches: (account: Account, q: Static<typeof LoteCobVListQuery>) => bacenList(q, w => sb.cobvBatches.ofAccount(account.id, w), batches),
    webhooks: (account: Account, callback: ApiPixCallback, q: Static<typeof ApiPixWebhookListQuery>) => bacenList(q, () => sb.apiPixWebhooks.ofAccount(account.id, callback), webhooks),
    recs: (account: Account, q: Static<typeof RecListQuery>) => bacenList(q, w => sb.recurrences.ofAccount(account.id, w), recs),
    recLocations: (account: Account, q: Static<typeof LocRecListQuery>) => bacenList(q, w => sb.recurrences.locationsOf(account.id, w), recLocations),
    cobrs: (account: Account, q: Static<typeof CobRListQuery>) => bacenList(q, w => sb.cobrs.ofAccount(account.id, w), cobrs),
    locations: (account: Account, q: Static<typeof LocListQuery>) => bacenList(q, w => sb.locations.ofAccount(account.id, w), locations),
  }
}

export type ApiPixLists = ReturnType<typeof apiPixLists>
