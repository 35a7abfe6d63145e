import { cobFieldProblems, type CobRequest, type CobRevision } from '../domain/cob.js'
import { hostOf, JWKS_PATH } from '../domain/payload-locations.js'
import { invalidRequest } from '../errors/refusal.js'
import type { Account, PayloadLocation, TransactionOf } from '../store/state.js'
import type { CobWrites, PayloadLocations, PayloadSigning, Ports } from '../ports.js'
import type { AppliedScenario } from '../../scenarios/types.js'
import { chargeData, txidInUse } from './charge-records.js'

/**
 * BACEN's API Pix over the cobs the gateway keeps too (docs/api-pix.md, cob): the same records,
 * shown as API Pix shows them. A cob made here is served at a payload location of its own (`location`
 * is that URL, at most 77 characters, and `pixCopiaECola` the BR Code that carries it); one made on the
 * gateway keeps its own URL. A location unbound from its cob leaves the cob without one.
 */

/** A cob as API Pix asks for it: its chave is required, its calendario is not, and it may name the location it takes. */
export type ApiPixNewCob = Omit<CobRequest, 'calendario'> & { calendario?: CobRequest['calendario'], chave: string, loc?: { id: number } }

type Cob = TransactionOf<'COB'>

/** What a payload's signature says of where its key is: the scheme payers reach the location's host with. */
export interface PayloadFetch {
  scheme: 'http' | 'https'
}

export type PayloadAnswer =
  | { status: 'served', jws: string }
  | { status: 'not-found' | 'gone' }

export type ApiPixCobDeps = Pick<Ports, 'store' | 'clock'> & { cobs: CobWrites, locations: PayloadLocations, signer: PayloadSigning }

export class ApiPixCobs {
  constructor (private readonly deps: ApiPixCobDeps) {}

  /**
   * PUT /cob/{txid} and POST /cob (txid null): the charge, at the location `loc.id` names or at a new
   * one at `host`. Everything that can refuse is checked before the unit that writes.
   */
  create (account: Account, txid: string | null, body: ApiPixNewCob, scenarios: AppliedScenario[], host: string): Cob {
    const problems = cobFieldProblems({ original: body.valor.original, devedor: body.devedor, chave: body.chave }, 'alphanumeric')
    if (problems.length > 0) throw invalidRequest(problems)
    // A txid names one charge of the account, whatever its kind (cob, cobv, cobr).
    const holder = txid === null ? undefined : this.deps.store.chargeOfTxid(account.id, txid)
    if (txid !== null && holder !== undefined) throw txidInUse(txid, holder, 'cob')
    const given = body.loc === undefined ? undefined : this.deps.locations.usable(account, body.loc.id, 'cob')
    // One unit with no await before it: the location, the charge and their binding are stored together or not at all.
    return this.deps.store.transact(() => {
      const loc = given ?? this.deps.locations.create(account, 'cob', host)
      const charge = this.deps.cobs.createCob(account, txid, { ...body, calendario: body.calendario ?? {} }, scenarios, { locId: loc.id, location: loc.location })
      this.deps.locations.bind(loc.id, charge.id)
      return charge
    })
  }

  /**
   * PATCH /cob/{txid}: the gateway's revision, but API Pix refuses a cancellation that changes
   * something else too (nothing of it would be used).
   */
  revise (account: Account, txid: string, body: CobRevision): Cob {
    this.deps.cobs.cob(account, txid) // an unknown txid is 404 before anything else
    if (body.status !== undefined) {
      const others = (['calendario', 'devedor', 'valor', 'chave', 'solicitacaoPagador', 'infoAdicionais'] as const).filter(k => body[k] !== undefined)
      if (others.length > 0) throw invalidRequest(`A cobrança não pode ser removida (status ${body.status}) e alterada (${others.join(', ')}) na mesma requisição`, { fields: ['status'] })
    }
    return this.deps.cobs.reviseCob(account, txid, body, 'alphanumeric')
  }

  /** GET /cob/{txid}: `revisao`, when given, must be the current one (the sandbox keeps no other). */
  get (account: Account, txid: string, revisao?: number): Cob {
    const charge = this.deps.cobs.cob(account, txid)
    const current = chargeData(charge).cob?.revisao ?? 0
    if (revisao !== undefined && revisao !== current) {
      throw invalidRequest(`A revisão ${revisao} não existe para esta cobrança: a atual é ${current}, a única que a sandbox guarda`, { fields: ['revisao'] })
    }
    return charge
  }

  /** The location a cob shows: its payload location while bound; the gateway's own URL for a cob made there. */
  locationOf (charge: Cob): { id: number, location: string, criacao: string } | null {
    const loc = this.deps.locations.ofCharge(charge)
    if (loc !== undefined) return { id: loc.id, location: loc.location, criacao: loc.createdAt }
    if (this.deps.locations.isLocated(charge)) return null
    const d = chargeData(charge)
    return { id: d.cob!.locId, location: d.location!, criacao: charge.createdAt }
  }

  /** Whether the cob still shows a location (GET /cob's locationPresente). */
  hasLocation (charge: Cob): boolean {
    return this.locationOf(charge) !== null
  }

  /**
   * GET <location>: the signed payload (CobPayload, as `payloadOf` renders it) of the charge a location
   * serves. A location that serves none is not found; one whose charge can no longer be paid (paid,
   * removed, expired) is gone for good (410): API Pix lets the PSP choose, and a payer's app then says
   * the charge is over.
   */
  payload (token: string, fetch: PayloadFetch, payloadOf: (charge: Cob) => Record<string, unknown>): PayloadAnswer {
    const loc = this.deps.locations.byTokenOf(token)
    const charge = loc === undefined ? undefined : this.deps.locations.charge(loc)
    if (loc === undefined || charge === undefined || charge.kind !== 'COB') return { status: 'not-found' }
    if (charge.status !== 'ATIVA' || (charge.dueAt !== undefined && Date.parse(charge.dueAt) <= this.deps.clock.now())) return { status: 'gone' }
    return { status: 'served', jws: this.deps.signer.sign(payloadOf(charge), jkuOf(loc, fetch)) }
  }
}

/** Where the key of a location's payload is published: the JWKS at the location's own host (BACEN's security manual asks for the same host). */
export function jkuOf (loc: Pick<PayloadLocation, 'location'>, fetch: PayloadFetch): string {
  return `${fetch.scheme}://${hostOf(loc.location)}${JWKS_PATH}`
}
