import { generateCpf, isValidCnpj, isValidCpf, isValidDocument } from '../domain/documents.js'
import { randomInt, type Rng } from '../domain/ids.js'
import { detectDirectoryKeyType, normalizeKey, type DirectoryKeyType } from '../domain/keys.js'
import { Refusal } from '../errors/refusal.js'
import type { AccountKeys, KeyHolders, Lifecycle, Ports } from '../ports.js'
import { type Derived } from '../store/derived.js'
import { RecordLists } from '../store/record-lists.js'
import { intern } from '../store/intern.js'
import type { Counterpart, DirectoryEntry } from '../store/state.js'

/**
 * The key directory (docs/gateway.md §2.3): the keys the sandbox knows, with their holders, in
 * canonical form; and the holders it invents, reproducibly from the seed, for keys it does not list.
 */
// ---- generated holders of keys the directory does not list ---------------------------------------------

const OTHER_INSTITUTIONS = [
  { ispb: '00000000', bankName: 'BANCO DO BRASIL S.A.', bankCode: '001' },
  { ispb: '60701190', bankName: 'ITAU UNIBANCO S.A.', bankCode: '341' },
  { ispb: '00360305', bankName: 'CAIXA ECONOMICA FEDERAL', bankCode: '104' },
  { ispb: '60746948', bankName: 'BANCO BRADESCO S.A.', bankCode: '237' },
  { ispb: '90400888', bankName: 'BANCO SANTANDER (BRASIL) S.A.', bankCode: '033' },
  { ispb: '18236120', bankName: 'NU PAGAMENTOS S.A.', bankCode: '260' },
] as const
const FIRST_NAMES = ['ANA', 'BRUNO', 'CARLA', 'DIEGO', 'ELISA', 'FABIO', 'GABRIELA', 'HUGO', 'ISABEL', 'JOAO', 'LARISSA', 'MARCOS']
const LAST_NAMES = ['SILVA', 'SANTOS', 'OLIVEIRA', 'SOUZA', 'PEREIRA', 'COSTA', 'RODRIGUES', 'ALMEIDA', 'NASCIMENTO', 'LIMA']

/**
 * The holder of a key that is not in the directory: the payment still goes to "the key owner", so the
 * sandbox invents one at another institution than the payer's, from `stream` (a stream derived from the
 * seed and the destination: the same destination, the same holder). Without a document, one is invented too.
 */
export function generatedHolder (stream: Rng, holder: { name?: string, document?: string, key?: string }, payerIspb: string): Counterpart {
  const document = holder.document ?? generateCpf(stream)
  const banks = OTHER_INSTITUTIONS.filter(b => b.ispb !== payerIspb)
  const bank = banks[randomInt(stream, banks.length)]
  const name = holder.name ?? intern(`${FIRST_NAMES[randomInt(stream, FIRST_NAMES.length)]} ${LAST_NAMES[randomInt(stream, LAST_NAMES.length)]}`)
  const digits = (n: number): string => {
    let out = ''
    for (let i = 0; i < n; i++) out += String.fromCharCode(48 + randomInt(stream, 10))
    return out
  }
  return {
    name,
    document,
    ispb: bank.ispb,
    bankName: bank.bankName,
    bankCode: bank.bankCode,
    accountBranch: digits(4),
    accountNumber: `${digits(7)}-${digits(1)}`,
    ...(holder.key !== undefined && { key: holder.key }),
    generated: true,
  }
}

/** The counterpart of a payment to a key the directory lists: its holder, bank and account. */
export function counterpartOf (entry: DirectoryEntry): Counterpart {
  return {
    name: entry.name,
    document: entry.document,
    ispb: entry.ispb,
    bankName: entry.bankName,
    bankCode: entry.bankCode ?? null,
    accountBranch: entry.accountBranch ?? null,
    accountNumber: entry.accountNumber ?? null,
    key: entry.key,
  }
}

/** A key in the directory's canonical form, or null when it is no directory key at all. */
export function directoryKeyOf (key: string): { key: string, keyType: DirectoryKeyType } | null {
  const compactEvp = /^[0-9a-f]{32}$/i.test(key)
  const keyType = compactEvp ? 'EVP' : detectDirectoryKeyType(key)
  return keyType === null ? null : { key: normalizeKey(keyType, key), keyType }
}

function isValidDirectoryKey (keyType: DirectoryKeyType, key: string): boolean {
  switch (keyType) {
    case 'CPF': return isValidCpf(key)
    case 'CNPJ': return isValidCnpj(key)
    default: return directoryKeyOf(key)?.keyType === keyType
  }
}

export type DirectoryDeps = Pick<Ports, 'store' | 'rng'>

/** Invented holders kept for reuse, at most (each is a pure function of its destination: dropping one loses nothing). */
const INVENTED_KEPT = 10_000

/** The key directory: the control plane's edits (/__sandbox/directory), and who holds a key, as a payment to it asks. */
export class DirectoryService implements Lifecycle {
  /**
   * Invented holders by payer institution, key, document and name: every pay-out to one destination shares
   * one frozen record instead of keeping a copy of its own.
   */
  private readonly inventedHolders = new Map<string, Counterpart>()

  /** The keys by holder (document and institution): an account's keys are read without the whole directory. */
  private readonly byHolder: RecordLists<'directory'>
  readonly derived: readonly Derived[]

  constructor (private readonly deps: DirectoryDeps) {
    this.byHolder = new RecordLists(deps.store, 'directory', e => holderOf(e.document, e.ispb))
    this.derived = [this.byHolder]
  }

  /**
   * The keys of the holder of `document` at `ispb`, oldest first. A list may still name a key removed
   * or moved to another holder since (a removal does not walk the lists): what is listed is checked.
   */
  heldBy (document: string, ispb: string): DirectoryEntry[] {
    const held: DirectoryEntry[] = []
    const seen = new Set<string>()
    for (const entry of this.byHolder.listed(holderOf(document, ispb))) {
      if (seen.has(entry.key) || entry.document !== document || entry.ispb !== ispb) continue
      seen.add(entry.key)
      held.push(entry)
    }
    return held
  }

  /** What a pay-out asks of the directory (KeyHolders): the holder of the key it pays. */
  readonly holders: KeyHolders = {
    listed: directoryKey => {
      const entry = this.deps.store.directoryEntry(directoryKey)
      return entry && { counterpart: counterpartOf(entry), accountStatus: entry.accountStatus ?? 'ACTIVE' }
    },
    invented: (destination, payerIspb) => {
      const id = `${payerIspb}\u0000${destination.key ?? ''}\u0000${destination.document ?? ''}\u0000${destination.name ?? ''}`
      let holder = this.inventedHolders.get(id)
      if (!holder) {
        holder = Object.freeze(generatedHolder(this.deps.rng.derive(`holder\u0000${id}`), destination, payerIspb))
        if (this.inventedHolders.size >= INVENTED_KEPT) this.inventedHolders.clear()
        this.inventedHolders.set(id, holder)
      }
      return holder
    },
  }

  /**
   * Which keys an account holds (API Pix's webhooks are per key): its own document, and each key of the
   * directory whose holder has its document at its institution (a key registered for it through
   * /__sandbox/directory).
   */
  readonly keys: AccountKeys = {
    canonical: key => directoryKeyOf(key)?.key ?? null,
    holds: (account, key) => {
      if (key === account.document) return true
      const entry = this.deps.store.directoryEntry(key)
      return entry !== undefined && entry.document === account.document && entry.ispb === account.ispb
    },
  }

  entries (): DirectoryEntry[] {
    return Object.values(this.deps.store.data.directory)
  }

  entry (key: string): DirectoryEntry | undefined {
    return this.deps.store.directoryEntry(directoryKeyOf(key)?.key ?? key)
  }

  /** Adds or replaces an entry; the key must have the format of its type, and is stored in canonical form. */
  put (key: string, fields: Omit<DirectoryEntry, 'key' | 'keyType'> & { keyType?: DirectoryKeyType }): { entry: DirectoryEntry, created: boolean } {
    const detected = directoryKeyOf(key)
    const keyType = fields.keyType ?? detected?.keyType
    if (!keyType || !isValidDirectoryKey(keyType, key)) {
      // The control plane's (its directory), so in its English.
      throw new Refusal('INVALID_PIX_KEY', `Key "${key}" does not have the form of ${keyType ?? 'any key type of the directory'} (CPF, CNPJ, EMAIL, PHONE +55..., EVP)`)
    }
    if (!isValidDocument(fields.document)) throw new Refusal('INVALID_DOCUMENT', 'document must be a valid CPF or CNPJ')
    const canonical = normalizeKey(keyType, key)
    const before = this.deps.store.directoryEntry(canonical)
    const entry = this.deps.store.transact(() => this.deps.store.put('directory', { ...fields, key: canonical, keyType }))
    if (before === undefined || before.document !== entry.document || before.ispb !== entry.ispb) this.byHolder.add(entry)
    return { entry, created: before === undefined }
  }

  remove (key: string): boolean {
    const canonical = directoryKeyOf(key)?.key ?? key
    return this.deps.store.transact(() => this.deps.store.remove('directory', canonical))
  }
}

/** A holder's list in the directory's index: its document at its institution. */
const holderOf = (document: string, ispb: string): string => `${ispb}:${document}`
