// The PIX BR Code: an EMV QR Code (Merchant Presented Mode) payload as the central bank's
// "Manual do BR Code" defines it. Every field is TLV, ID(2) LEN(2) VALUE, with LEN counting
// characters of a pure-ASCII payload; text is normalized to ASCII before it is measured.
import { centsToString, MAX_CENTS, parseDecimalString } from './money.js'

export interface BrCodeInput {
  /** Receiver key of a static code (tag 26-01). Exactly one of key and location. */
  key?: string
  /** Payload URL of a dynamic code (tag 26-25), without scheme; a leading `https://` is dropped. */
  location?: string
  amountCents?: number
  merchantName: string
  merchantCity: string
  /** Up to 25 alphanumerics (tag 62-05); `***` is written when absent. */
  txid?: string
  /** Tag 01 = "12": the code can be paid once. */
  singleUse?: boolean
  /** Free text of a static code (tag 26-02), kept only while the template fits in 99 characters. */
  description?: string
}

export interface BrCode {
  payloadFormat: string
  singleUse: boolean
  key?: string
  location?: string
  amountCents?: number
  merchantName: string
  merchantCity: string
  txid?: string
  description?: string
}

/** Why a code was refused: `reason` in Portuguese for the gateway's families, `english` for the control plane. */
export interface BrCodeRefusal { ok: false, reason: string, english: string }

export type ParsedBrCode = { ok: true, value: BrCode } | BrCodeRefusal

export const PIX_GUI = 'br.gov.bcb.pix'
const MERCHANT_NAME_MAX = 25
const MERCHANT_CITY_MAX = 15
const AMOUNT_MAX = 13 // EMV length limit of tag 54
const TXID = /^[A-Za-z0-9]{1,25}$/
const NO_TXID = '***'

/** CRC16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor) as 4 upper-case hex digits. */
export function crc16 (s: string): string {
  let crc = 0xFFFF
  for (const byte of new TextEncoder().encode(s)) {
    crc ^= byte << 8
    for (let bit = 0; bit < 8; bit++) crc = (crc & 0x8000) !== 0 ? ((crc << 1) ^ 0x1021) & 0xFFFF : (crc << 1) & 0xFFFF
  }
  return crc.toString(16).toUpperCase().padStart(4, '0')
}

/**
 * Text reduced to printable ASCII: accents stripped (NFD, then combining marks dropped), any other
 * non-ASCII character dropped, whitespace collapsed. "São Paulo" -> "Sao Paulo".
 */
export function toAsciiText (s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').replace(/[^\x20-\x7E\s]/g, '').replace(/\s+/g, ' ').trim()
}

/** Merchant name or city as the code carries it: ASCII, upper-case (the convention), truncated. */
export function toMerchantText (s: string, maxLength: number): string {
  return toAsciiText(s).toUpperCase().slice(0, maxLength).trimEnd()
}

// Printable ASCII only, so that LEN (characters) is also the byte count a reader measures.
export function tlv (id: string, value: string): string {
  if (!/^[\x20-\x7E]{1,99}$/.test(value)) throw new RangeError(`BR Code field ${id} must be 1 to 99 printable ASCII characters, got "${value}"`)
  return id + String(value.length).padStart(2, '0') + value
}

/**
 * The copy-and-paste payload. Throws RangeError on input the caller should have validated
 * (no key nor location, both, an amount or txid out of format, a name with no ASCII left).
 */
export function buildBrCode (input: BrCodeInput): string {
  const { key, location, amountCents, txid, singleUse = false } = input
  if (key !== undefined && location !== undefined) throw new RangeError('BR Code takes a key or a location, not both')
  const merchantName = toMerchantText(input.merchantName, MERCHANT_NAME_MAX)
  const merchantCity = toMerchantText(input.merchantCity, MERCHANT_CITY_MAX)
  if (merchantName === '' || merchantCity === '') throw new RangeError('merchant name and city need at least one ASCII character')
  if (txid !== undefined && !TXID.test(txid)) throw new RangeError(`BR Code txid must be 1 to 25 alphanumerics, got "${txid}"`)

  let account: string
  if (location !== undefined) account = tlv('00', PIX_GUI) + tlv('25', stripScheme(location))
  else if (key !== undefined) account = tlv('00', PIX_GUI) + tlv('01', key)
  else throw new RangeError('BR Code needs a key or a location')
  if (key !== undefined && input.description !== undefined) {
    const description = toAsciiText(input.description)
    const withDescription = description === '' ? account : account + tlv('02', description.slice(0, 99))
    // The description is optional decoration; the key is not. It goes only if the template still fits.
    if (withDescription.length <= 99) account = withDescription
  }

  let payload = tlv('00', '01')
  if (singleUse) payload += tlv('01', '12')
  payload += tlv('26', account) + tlv('52', '0000') + tlv('53', '986')
  if (amountCents !== undefined) payload += tlv('54', amountText(amountCents))
  payload += tlv('58', 'BR') + tlv('59', merchantName) + tlv('60', merchantCity) +
    tlv('62', tlv('05', txid ?? NO_TXID)) + '6304'
  return payload + crc16(payload)
}

function stripScheme (location: string): string {
  return location.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
}

function amountText (cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 1 || cents > MAX_CENTS) throw new RangeError(`BR Code amount must be 1 to ${MAX_CENTS} cents, got ${cents}`)
  const text = centsToString(cents)
  if (text.length > AMOUNT_MAX) throw new RangeError(`BR Code amount "${text}" exceeds ${AMOUNT_MAX} characters`)
  return text
}

interface Field { id: string, value: string }
type Fields = { ok: true, fields: Field[] } | BrCodeRefusal

/** Where a TLV sequence is, in both languages: `['campo 62', 'field 62']`. */
type Where = readonly [pt: string, en: string]

/** Splits a TLV sequence, requiring every declared length to be exactly what follows. */
export function readFields (s: string, [where, whereEn]: Where): Fields {
  const fields: Field[] = []
  const seen = new Set<string>()
  let i = 0
  while (i < s.length) {
    if (s.length - i < 4) return fail(`${where}: campo truncado na posição ${i}`, `${whereEn}: field cut short at position ${i}`)
    const id = s.slice(i, i + 2)
    const len = s.slice(i + 2, i + 4)
    if (!/^\d{2}$/.test(id)) return fail(`${where}: identificador inválido "${id}" na posição ${i}`, `${whereEn}: invalid id "${id}" at position ${i}`)
    if (!/^\d{2}$/.test(len) || len === '00') return fail(`${where}: tamanho inválido "${len}" no campo ${id}`, `${whereEn}: invalid length "${len}" of field ${id}`)
    const end = i + 4 + Number(len)
    if (end > s.length) return fail(`${where}: campo ${id} declara ${Number(len)} caracteres, restam ${s.length - i - 4}`, `${whereEn}: field ${id} declares ${Number(len)} characters, ${s.length - i - 4} remain`)
    if (seen.has(id)) return fail(`${where}: campo ${id} repetido`, `${whereEn}: field ${id} repeated`)
    seen.add(id)
    fields.push({ id, value: s.slice(i + 4, end) })
    i = end
  }
  return { ok: true, fields }
}

function fail (reason: string, english: string): BrCodeRefusal {
  return { ok: false, reason, english }
}

/** Strict parse of a PIX BR Code: any wrong length, missing mandatory field or CRC mismatch rejects it. */
export function parseBrCode (s: string): ParsedBrCode {
  if (typeof s !== 'string' || s.length === 0) return fail('BR Code vazio', 'empty BR Code')
  if (!/^[\x20-\x7E]+$/.test(s)) return fail('BR Code contém caracteres fora do ASCII imprimível', 'the BR Code has characters outside printable ASCII')
  const read = readFields(s, ['BR Code', 'BR Code'])
  if (!read.ok) return read
  const fields = read.fields
  const get = (id: string): string | undefined => fields.find(f => f.id === id)?.value

  const crcField = fields[fields.length - 1]
  if (crcField.id !== '63') return fail('o CRC (campo 63) deve ser o último campo', 'the CRC (field 63) must be the last field')
  if (!/^[0-9A-Fa-f]{4}$/.test(crcField.value)) return fail('CRC (campo 63) deve ter 4 dígitos hexadecimais', 'the CRC (field 63) must be 4 hexadecimal digits')
  if (crc16(s.slice(0, -4)) !== crcField.value.toUpperCase()) return fail('CRC não confere', 'the CRC does not match')

  if (fields[0].id !== '00' || fields[0].value !== '01') return fail('o campo 00 deve ser o primeiro e valer "01"', 'field 00 must come first and be "01"')
  const pointOfInitiation = get('01')
  if (pointOfInitiation !== undefined && pointOfInitiation !== '11' && pointOfInitiation !== '12') return fail('campo 01 deve valer "11" ou "12"', 'field 01 must be "11" or "12"')

  const account = readPixAccount(fields)
  if (!account.ok) return account

  if (!/^\d{4}$/.test(get('52') ?? '')) return fail('campo 52 (categoria) ausente ou inválido', 'field 52 (category) missing or invalid')
  const currency = get('53')
  if (currency !== undefined && currency !== '986') return fail('campo 53 (moeda) deve ser "986"', 'field 53 (currency) must be "986"')

  let amountCents: number | undefined
  const amount = get('54')
  if (amount !== undefined) {
    const parsed = parseDecimalString(amount, 'up-to-2')
    if (!parsed.ok || amount.length > AMOUNT_MAX) return fail(`campo 54 (valor) inválido: "${amount}"`, `field 54 (amount) invalid: "${amount}"`)
    amountCents = parsed.cents
  }

  if (get('58') !== 'BR') return fail('campo 58 (país) deve ser "BR"', 'field 58 (country) must be "BR"')
  const merchantName = get('59')
  if (merchantName === undefined || merchantName.length > MERCHANT_NAME_MAX) return fail(`campo 59 (nome) ausente ou com mais de ${MERCHANT_NAME_MAX} caracteres`, `field 59 (name) missing or longer than ${MERCHANT_NAME_MAX} characters`)
  const merchantCity = get('60')
  if (merchantCity === undefined || merchantCity.length > MERCHANT_CITY_MAX) return fail(`campo 60 (cidade) ausente ou com mais de ${MERCHANT_CITY_MAX} caracteres`, `field 60 (city) missing or longer than ${MERCHANT_CITY_MAX} characters`)

  let txid: string | undefined
  const additional = get('62')
  if (additional !== undefined) {
    const sub = readFields(additional, ['campo 62', 'field 62'])
    if (!sub.ok) return sub
    const reference = sub.fields.find(f => f.id === '05')?.value
    if (reference !== undefined && reference !== NO_TXID) {
      if (!TXID.test(reference)) return fail(`campo 62-05 (txid) inválido: "${reference}"`, `field 62-05 (txid) invalid: "${reference}"`)
      txid = reference
    }
  }

  const { key, location, description } = account
  return {
    ok: true,
    value: {
      payloadFormat: '01',
      singleUse: pointOfInitiation === '12',
      ...(key !== undefined && { key }),
      ...(location !== undefined && { location }),
      ...(amountCents !== undefined && { amountCents }),
      merchantName,
      merchantCity,
      ...(txid !== undefined && { txid }),
      ...(description !== undefined && { description })
    }
  }
}

type PixAccount = { ok: true, key?: string, location?: string, description?: string } | BrCodeRefusal

/**
 * The merchant account template of PIX: any of tags 26 to 51 whose GUI (sub-tag 00) is
 * br.gov.bcb.pix, in any case (BACEN's own examples write it upper-case). It carries a key
 * (static code) or a location (dynamic code), never both.
 */
function readPixAccount (fields: Field[]): PixAccount {
  const templates: Field[][] = []
  for (const field of fields) {
    const id = Number(field.id)
    if (id < 26 || id > 51) continue
    const sub = readFields(field.value, [`campo ${field.id}`, `field ${field.id}`])
    if (!sub.ok) return sub
    if (sub.fields.find(f => f.id === '00')?.value.toLowerCase() === PIX_GUI) templates.push(sub.fields)
  }
  if (templates.length === 0) return fail(`nenhum campo 26 a 51 com GUI ${PIX_GUI}`, `no field 26 to 51 with GUI ${PIX_GUI}`)
  if (templates.length > 1) return fail(`mais de um campo com GUI ${PIX_GUI}`, `more than one field with GUI ${PIX_GUI}`)
  const sub = templates[0]
  const key = sub.find(f => f.id === '01')?.value
  const location = sub.find(f => f.id === '25')?.value
  const description = sub.find(f => f.id === '02')?.value
  if ((key === undefined) === (location === undefined)) return fail('a conta PIX deve ter chave (01) ou location (25), e só um deles', 'the PIX account must have a key (01) or a location (25), and only one of them')
  if (location !== undefined && /^[a-z][a-z0-9+.-]*:\/\//i.test(location)) return fail('location (26-25) não pode conter o esquema da URL', 'the location (26-25) must not carry the URL scheme')
  return { ok: true, key, location, description }
}
