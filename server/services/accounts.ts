import { generateClientCertificate, fingerprintOf } from '../auth/certificates.js'
import { randomAlnum, randomHex, randomInt, randomUuid, type SeededRng } from '../domain/ids.js'
import { secretRng } from '../auth/secrets.js'
import { generateCnpj } from '../domain/documents.js'
import * as ledger from '../domain/ledger.js'
import { brlToCents } from '../domain/money.js'
import type { Clock } from '../engine/clock.js'
import type { AccountDefaults, Fixtures, FixtureAccount } from '../fixtures.js'
import type { Account, MercadoPagoCredentials, ProviderGroup, SplitFrequency } from '../store/state.js'
import type { OAuthScope } from '../domain/scopes.js'
import type { Store } from '../store/store.js'
import { Refusal, invalidRequest } from '../errors/refusal.js'

/**
 * An account's incarnation (store/state.ts). From the system's random source, as credentials are: a
 * fresh state in another process with the same seed is another life too.
 */
const newIncarnation = (): string => randomAlnum(secretRng, 16)

/**
 * Accounts: the fixture accounts restored on reset, and fresh isolated accounts created on demand
 * (each with its own credentials and client certificate), plus control-plane balance changes.
 */
export interface AccountSettings {
  name?: string
  document?: string
  balance?: number
  providerGroup?: ProviderGroup
  documentCheck?: boolean
  fee?: number
  limits?: Partial<AccountDefaults['limits']>
  cashInMinExpirationSeconds?: number
  splitFrequency?: SplitFrequency
  /** Efí's homologação profile (docs/efi.md): its test rules for Efí's pay-outs. */
  efiHomologacao?: boolean
  /** Whether its API Pix webhooks' https receivers are checked for mutual TLS when configured (docs/webhooks.md); default on. */
  webhookMtlsCheck?: boolean
  /** The scopes of API Pix it is granted; every one when absent. */
  scopes?: OAuthScope[]
  /** Its Mercado Pago credentials, each generated when absent (docs/mercado-pago.md, Credentials). */
  mercadoPago?: Partial<Omit<MercadoPagoCredentials, 'webhookUrl'>>
}

/**
 * Mercado Pago credentials shaped as its test ones (docs/assumptions.md, Mercado Pago): the access
 * token `TEST-<16 digits>-<MMDDHH>-<32 hex>-<user id>`, the public key `TEST-<uuid>`, a 64-hex webhook
 * secret; what is given is kept. From the system's random source, as every credential.
 */
function mercadoPagoCredentials (given: AccountSettings['mercadoPago'] = {}, nowMs: number): MercadoPagoCredentials {
  const userId = given.userId ?? 100_000_000 + randomInt(secretRng, 1_900_000_000)
  const at = new Date(nowMs)
  const issued = [at.getUTCMonth() + 1, at.getUTCDate(), at.getUTCHours()].map(n => String(n).padStart(2, '0')).join('')
  const digits = (n: number): string => Array.from({ length: n }, () => String(randomInt(secretRng, 10))).join('')
  return {
    accessToken: given.accessToken ?? `TEST-${digits(16)}-${issued}-${randomHex(secretRng, 32)}-${userId}`,
    publicKey: given.publicKey ?? `TEST-${randomUuid(secretRng)}`,
    userId,
    webhookSecret: given.webhookSecret ?? randomHex(secretRng, 64),
  }
}

export interface CreatedAccount {
  account: Account
  certificate: string
  privateKey: string
}

export class AccountService {
  constructor (
    private readonly store: Store,
    private readonly fixtures: Fixtures,
    private readonly clock: Clock,
    private readonly rng: SeededRng
  ) {}

  /** Builds an account record from settings over the fixture defaults. */
  private build (id: number, s: AccountSettings & { clientId: string, clientSecret: string, certificatePem: string, name: string, document: string }): Account {
    const d = this.fixtures.accountDefaults
    const opening = brlToCents(s.balance ?? d.balance)
    const limits = { ...d.limits, ...s.limits }
    return {
      id,
      name: s.name,
      document: s.document,
      ispb: this.fixtures.institution.ispb,
      bankName: this.fixtures.institution.name,
      clientId: s.clientId,
      clientSecret: s.clientSecret,
      certificateFingerprints: [fingerprintOf(s.certificatePem)],
      certificatePem: s.certificatePem,
      providerGroup: s.providerGroup ?? d.providerGroup,
      documentCheck: s.documentCheck ?? d.documentCheck,
      feeCents: brlToCents(s.fee ?? d.fee),
      limits: {
        perTransactionCents: brlToCents(limits.perTransaction),
        dailyCents: brlToCents(limits.daily),
        nightlyCents: brlToCents(limits.nightly),
      },
      cashInMinExpirationSeconds: s.cashInMinExpirationSeconds ?? d.cashInMinExpirationSeconds,
      splitFrequency: s.splitFrequency ?? d.splitFrequency,
      balance: { availableCents: opening, blockedCents: 0 },
      totals: { openingCents: opening, adjustmentsCents: 0, settledInCents: 0, settledOutCents: 0, feesCents: 0 },
      createdAt: new Date(this.clock.now()).toISOString(),
      incarnation: newIncarnation(),
      ...(s.scopes !== undefined ? { scopes: [...new Set(s.scopes)] } : {}),
      mercadoPago: mercadoPagoCredentials(s.mercadoPago, this.clock.now()),
      ...(s.efiHomologacao === true ? { efiHomologacao: true } : {}),
      ...(s.webhookMtlsCheck !== undefined ? { webhookMtlsCheck: s.webhookMtlsCheck } : {}),
    }
  }

  /** Puts the fixture accounts (and the key directory) in an empty store. */
  seedFixtures (): void {
    this.store.transact(() => {
      for (const f of this.fixtures.accounts) this.store.addAccount(this.build(f.id, { ...f }))
      for (const entry of this.fixtures.directory) this.store.put('directory', { ...entry })
      this.store.raiseSeq('account', Math.max(0, ...this.fixtures.accounts.map(a => a.id)))
    })
  }

  /** The account, or the 404 (ACCOUNT_NOT_FOUND) every control-plane route answers for an unknown id. */
  require (id: number): Account {
    const account = this.store.account(id)
    if (!account) throw new Refusal('ACCOUNT_NOT_FOUND', `Account ${id} not found`)
    return account
  }

  fixtureOf (id: number): FixtureAccount | undefined {
    return this.fixtures.accounts.find(a => a.id === id)
  }

  /**
   * A new account with its own certificate. The certificate (which names the account id) is made
   * before the id is taken, and the id is taken in the unit that adds the account: a request that
   * fails uses up no id. Creations racing for the same id make their certificate again with the next.
   */
  async create (settings: AccountSettings = {}): Promise<CreatedAccount> {
    const token = settings.mercadoPago?.accessToken
    const tokenTaken = (): void => {
      // An access token names one account: it never acts for another.
      if (token !== undefined && this.store.accountByAccessToken(token) !== undefined) throw invalidRequest('mercadoPago.accessToken is already the access token of another account', { en: 'mercadoPago.accessToken is already the access token of another account' })
    }
    tokenTaken()
    for (;;) {
      const id = this.store.peekSeq('account')
      const name = settings.name ?? `CONTA SANDBOX ${id}`
      const cert = await generateClientCertificate(name, id, this.clock.now())
      const account = this.store.transact(() => {
        if (this.store.peekSeq('account') !== id) return null
        tokenTaken()
        this.store.nextSeq('account')
        return this.store.addAccount(this.build(id, {
          ...settings,
          name,
          document: settings.document ?? generateCnpj(this.rng),
          // Credentials never come from the seeded generator: the seed is printed and shown, and would let
          // anyone who knows it compute every secret. The seed keeps ids and faults reproducible, not these.
          clientId: `sbx-${id}-${randomAlnum(secretRng, 12).toLowerCase()}`,
          clientSecret: randomAlnum(secretRng, 32),
          certificatePem: cert.certificate,
        }))
      })
      if (account) return { account, certificate: cert.certificate, privateKey: cert.privateKey }
    }
  }

  /**
   * Returns one account to its first state: opening balance, no transactions or other records,
   * same id, credentials, certificate and settings. A new life: tokens issued before no longer count.
   */
  reset (account: Account): Account {
    const fresh: Account = {
      ...structuredClone(account),
      incarnation: newIncarnation(),
      balance: { availableCents: account.totals.openingCents, blockedCents: 0 },
      totals: { openingCents: account.totals.openingCents, adjustmentsCents: 0, settledInCents: 0, settledOutCents: 0, feesCents: 0 },
    }
    return this.store.transact(() => {
      this.store.removeAccount(account.id)
      return this.store.addAccount(fresh)
    })
  }

  /**
   * Gives every account a new life (a snapshot import): a token issued before the import, even for an
   * account the snapshot holds with the same id and credentials, was issued to the state it replaced.
   */
  renewIncarnations (): void {
    this.store.transact(() => {
      for (const account of this.store.accounts()) this.store.patch('accounts', account.id, a => { a.incarnation = newIncarnation() })
    })
  }

  /** The account-level webhook URL of its Mercado Pago credentials ("Your integrations"); null removes it. */
  setMercadoPagoWebhookUrl (account: Account, url: string | null): Account {
    return this.store.transact(() => {
      this.store.update('accounts', account.id, a => {
        if (a.mercadoPago === undefined) return
        if (url === null) a.mercadoPago.webhookUrl = undefined
        else a.mercadoPago.webhookUrl = url
      })
      return this.store.account(account.id)!
    })
  }

  /** Credits (or debits, when negative) the available balance, or sets it to an exact value; null when done. */
  /** PATCH /__sandbox/accounts/{id}: the settings that may change after creation; the account as it now is. */
  changeSettings (account: Account, change: Pick<AccountSettings, 'webhookMtlsCheck'>): Account {
    this.store.transact(() => this.store.patch('accounts', account.id, a => {
      if (change.webhookMtlsCheck !== undefined) a.webhookMtlsCheck = change.webhookMtlsCheck
    }))
    return this.require(account.id)
  }

  changeBalance (account: Account, change: { credit?: number, set?: number }): ledger.AdjustProblem | null {
    const delta = change.set !== undefined
      ? brlToCents(change.set) - account.balance.availableCents
      : brlToCents(change.credit ?? 0)
    return this.store.transact(() => this.store.ledger(account.id, a => ledger.adjust(a, delta)))
  }
}
