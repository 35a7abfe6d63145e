import { locationAt, newLocationToken, tokenOf, type TipoCob } from '../domain/payload-locations.js'
import { Refusal, invalidRequest } from '../errors/refusal.js'
import type { Account, PayloadLocation, Transaction } from '../store/state.js'
import type { Lifecycle, LocatedCharges, Ports } from '../ports.js'
import { KeyIndex, type Derived, type InstantRange } from '../store/derived.js'
import { RecordLists } from '../store/record-lists.js'
import { chargeData, locIdOf } from './charge-records.js'
import { iso } from './history.js'

/**
 * API Pix's payload locations (BACEN's API Pix 2.9.0, tag PayloadLocation; docs/api-pix.md): created
 * alone (POST /loc) or with a cob, bound to the charge they serve, unbound from it (DELETE
 * /loc/{id}/txid). Owns the `locations` collection; keeps in memory which token is which location.
 */

export type { TipoCob }

export type LocationDeps = Pick<Ports, 'store' | 'clock' | 'rng'>

export class LocationService implements Lifecycle, LocatedCharges {
  /** Token (the last segment of a location) to location id. */
  private readonly byToken: KeyIndex<'locations'>
  /** The locations in the order they were made, of every account (`all`) and of each: GET /loc's list and the control plane's. */
  private readonly made: RecordLists<'locations'>
  readonly derived: readonly Derived[]

  constructor (private readonly deps: LocationDeps) {
    this.byToken = new KeyIndex(deps.store, 'locations', { keys: loc => tokenOf(loc.location) ?? undefined })
    this.made = new RecordLists(deps.store, 'locations', loc => ['all', String(loc.accountId)], loc => loc.createdAt)
    this.derived = [this.byToken, this.made]
  }

  private get store () { return this.deps.store }

  /** A new location at `host` (host[:port], at most 33 characters: LOCATION_HOST_MAX_LENGTH), serving no charge yet; a cobv's path is its own. */
  create (account: Account, tipoCob: TipoCob, host: string): PayloadLocation {
    return this.store.transact(() => {
      let token = newLocationToken(this.deps.rng)
      while (this.byToken.has(token)) token = newLocationToken(this.deps.rng)
      const record = this.store.add('locations', {
        id: this.store.nextSeq('loc'),
        accountId: account.id,
        tipoCob,
        location: locationAt(host, token, tipoCob),
        createdAt: iso(this.deps.clock.now()),
      })
      this.byToken.follow(record)
      this.made.add(record)
      return record
    })
  }

  /** The account's location `id`; 404 for any other, another account's included. */
  get (account: Account, id: number): PayloadLocation {
    const loc = this.store.data.locations[id]
    if (loc === undefined || loc.accountId !== account.id) throw new Refusal('NOT_FOUND', `Location ${id} não encontrada`)
    return loc
  }

  /**
   * The location a new charge names by `loc.id`: the account's, of the charge's type, serving no charge
   * (API Pix's CobOperacaoInvalida otherwise, naming loc.id).
   */
  usable (account: Account, id: number, tipoCob: TipoCob): PayloadLocation {
    const loc = this.store.data.locations[id]
    const problem = loc === undefined || loc.accountId !== account.id
      ? `O location referenciado por loc.id ${id} inexiste`
      : loc.tipoCob !== tipoCob
        ? `O location referenciado por loc.id ${id} apresenta tipo ${loc.tipoCob} (deveria ser ${tipoCob})`
        : this.charge(loc) !== undefined ? `O location referenciado por loc.id ${id} já está sendo utilizado por outra cobrança` : null
    if (problem !== null) throw invalidRequest(problem, { fields: ['loc.id'] })
    return loc!
  }

  /** Binds a location to the charge it serves from now on; inside the unit that creates the charge. */
  bind (id: number, chargeId: string): void {
    this.store.transact(() => this.store.patch('locations', id, l => { l.chargeId = chargeId }))
  }

  /**
   * DELETE /loc/{id}/txid: the location serves no charge any more, and the charge shows no location
   * (its status does not change). A location serving none stays as it is.
   */
  unbind (account: Account, id: number): PayloadLocation {
    const loc = this.get(account, id)
    if (loc.chargeId === undefined) return loc
    this.store.transact(() => this.store.patch('locations', id, l => { delete l.chargeId }))
    return this.store.data.locations[id]
  }

  /** The charge a location serves, when it serves one that is still there. */
  charge (loc: PayloadLocation): Transaction | undefined {
    if (loc.chargeId === undefined) return undefined
    const tx = this.store.transaction(loc.chargeId)
    return tx !== undefined && tx.accountId === loc.accountId ? tx : undefined
  }

  /** The location a charge is served at, when it still is: the one its cob (or cobv) names, bound to it. */
  ofCharge (charge: Transaction): PayloadLocation | undefined {
    const locId = locIdOf(charge)
    const loc = locId === undefined ? undefined : this.store.data.locations[locId]
    return loc !== undefined && loc.chargeId === charge.id ? loc : undefined
  }

  /** Whether a charge's loc.id is one of these locations (a charge of API Pix), bound to it or not. */
  isLocated (charge: Transaction): boolean {
    const locId = locIdOf(charge)
    return locId !== undefined && this.store.data.locations[locId] !== undefined
  }

  /** The location of a token (GET /qr/v2/:token), whatever host the payer used. */
  byTokenOf (token: string): PayloadLocation | undefined {
    return this.byToken.record(token)
  }

  /** LocatedCharges: the charge a location of this sandbox serves now, for this exact location only. */
  chargeAt (location: string): Transaction | undefined {
    const token = tokenOf(location)
    const loc = token === null ? undefined : this.byTokenOf(token)
    return loc !== undefined && loc.location === location ? this.charge(loc) : undefined
  }

  /** A location as API Pix shows it (PayloadLocationCompleta): the txid of the charge it serves, when it serves one. */
  view (loc: PayloadLocation) {
    const charge = this.charge(loc)
    const txid = charge === undefined ? null : chargeData(charge).txid
    return { id: loc.id, location: loc.location, tipoCob: loc.tipoCob, criacao: loc.createdAt, ...(txid !== null ? { txid } : {}) }
  }

  /**
   * The control plane's page of locations (GET /__sandbox/locations), of every account or one, the last
   * made first (`RecordLists.newestFirst`, with the same account): each with its account and the
   * transaction of the charge it serves.
   */
  page (accountId: number | undefined, limit: number, cursor?: number) {
    const { records, nextCursor } = this.made.newestFirst(accountId === undefined ? 'all' : String(accountId), limit, cursor)
    const locations = records.map(loc => {
      const charge = this.charge(loc)
      return { ...this.view(loc), accountId: loc.accountId, ...(charge !== undefined ? { chargeId: charge.id } : {}) }
    })
    return { locations, ...(nextCursor !== undefined ? { nextCursor } : {}) }
  }

  /** The account's locations created within the range, in the order they were made (GET /loc lists them). */
  ofAccount (accountId: number, created: InstantRange): PayloadLocation[] {
    return this.made.within(String(accountId), created)
  }
}
