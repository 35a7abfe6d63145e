import { centsToString } from '../../domain/money.js'
import { Refusal } from '../../errors/refusal.js'
import type { Sandbox } from '../../sandbox.js'
import type { Account } from '../../store/state.js'
import type { AccountConfigType } from './schemas.js'

/**
 * Efí's own routes over the account (docs/efi.md, Account and keys): its balance with what is blocked,
 * its settings (kept by the PSP settings service), its random keys (entries of the sandbox's key
 * directory held by the account, so API Pix's webhooks and charges see them as its keys) and its key
 * bucket.
 */

/** Efí's settings among the PSP settings the sandbox keeps. */
export const EFI_SETTINGS = 'efi'

/** DICT's limit of keys per account: 5 for a person (CPF), 20 for a company (CNPJ). */
const keyLimit = (account: Account): number => account.document.length === 11 ? 5 : 20

/** The settings before any PUT: Pix received by account data too, no settings per key. */
const DEFAULT_CONFIG: AccountConfigType = { pix: { receberSemChave: true, chaves: {} } }

export class EfiAccount {
  constructor (private readonly sb: Sandbox) {}

  /** GET /v2/gn/saldo: the available balance; with `bloqueios=true`, the amounts under open MED cases too. */
  saldo (account: Account, bloqueios: boolean) {
    const saldo = centsToString(account.balance.availableCents)
    if (!bloqueios) return { saldo }
    let med = 0
    for (const c of this.sb.med.pendingOf(account.id)) if (c.originalTransaction !== null) med += Math.round(c.originalTransaction.amount * 100)
    return { saldo, bloqueios: { judicial: '0.00', med: centsToString(med), total: centsToString(med) } }
  }

  /** GET /v2/gn/config. */
  config (account: Account): AccountConfigType {
    return (this.sb.pspSettings.get(account.id, EFI_SETTINGS) as AccountConfigType | undefined) ?? DEFAULT_CONFIG
  }

  /** PUT /v2/gn/config: replaces the whole configuration; each key it names must be the account's. */
  putConfig (account: Account, config: AccountConfigType): void {
    // Kept under each key's canonical form, as the pay-outs name their payer's key.
    const chaves: NonNullable<AccountConfigType['pix']['chaves']> = {}
    for (const [chave, settings] of Object.entries(config.pix.chaves ?? {})) {
      const key = this.sb.directory.keys.canonical(chave)
      if (key === null || !this.sb.directory.keys.holds(account, key)) throw new Refusal('EFI_PAYER_KEY_INVALID', `A chave ${chave} não faz referência à conta Efí autenticada`)
      chaves[key] = settings
    }
    this.sb.pspSettings.put(account, EFI_SETTINGS, { pix: { ...config.pix, chaves } })
  }

  /** The account's random keys, oldest first (the directory keeps them in the order they were made). */
  evps (account: Account): string[] {
    return this.held(account).filter(e => e.keyType === 'EVP').map(e => e.key)
  }

  /** The directory's keys the account holds, read through the directory's index by holder. */
  private held (account: Account) {
    return this.sb.directory.heldBy(account.document, account.ispb)
  }

  /** POST /v2/gn/evp: a new random key of the account in the directory. */
  createEvp (account: Account): string {
    if (this.held(account).length >= keyLimit(account)) throw new Refusal('ACCOUNT_LIMIT_REACHED', 'O limite de criação de chaves foi atingido')
    const chave = this.sb.rng.uuid()
    this.sb.directory.put(chave, { keyType: 'EVP', name: account.name, document: account.document, ispb: account.ispb, bankName: account.bankName })
    return chave
  }

  /** DELETE /v2/gn/evp/:chave: a random key of the account leaves the directory, with its API Pix webhook. */
  deleteEvp (account: Account, chave: string): void {
    const entry = this.sb.directory.entry(chave)
    if (entry === undefined || entry.keyType !== 'EVP' || entry.document !== account.document || entry.ispb !== account.ispb) {
      throw new Refusal('EFI_KEY_NOT_FOUND', 'A chave informada não foi encontrada')
    }
    const slot = { callback: 'pix' as const, chave: entry.key }
    if (this.sb.apiPixWebhooks.pixCallbackUrl(account.id, entry.key) !== undefined) this.sb.apiPixWebhooks.remove(account, slot)
    this.sb.directory.remove(entry.key)
  }

  /** GET /v2/gn/chaves/balde: DICT's token buckets of the account, full (the sandbox consumes none). */
  buckets () {
    const full = { capacidade: 100, fichasDisponiveis: 100, taxaDeReposicaoFichas: 2, periodoReposicaoEmSegundos: 60 }
    return { baldeA: { tiposChave: ['cpf', 'cnpj', 'evp'], ...full }, baldeB: { tiposChave: ['telefone', 'email'], ...full } }
  }
}

/** `bloqueios=true` (PHP writes booleans as strings; anything else is false). */
export const wantsBlocks = (value: string | undefined): boolean => value === 'true'
