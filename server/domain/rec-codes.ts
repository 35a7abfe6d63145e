/**
 * The BR Codes of Pix Automático's QR journeys (API Pix 2.9.0, RecCompleta.dadosQR, lines 6243-6275,
 * and its examples recResponse3, 6 and 7): a recurrence travels in a code as a second merchant
 * account template, tag 80, whose GUI (sub-tag 00) is br.gov.bcb.pix and whose sub-tag 25 is the
 * recurrence's location, placed before the CRC. Alone (journey 2) the code's own tag 26 carries the
 * GUI only, with no key, location or amount: nothing to pay. Composed with a charge's code (journeys
 * 3 and 4) the charge's tags stay as they were, tag 80 is added and the CRC is computed again.
 *
 * - `recurrenceCode({ recLocation, merchantName, merchantCity })`: the code of journey 2.
 * - `withRecurrence(code, recLocation)`: a charge's code composed with the recurrence.
 * - `contractCode({ key, recLocation, ... })`: the static code of a contract (journey 4's other form):
 *   a static code to the receiver's key (tag 26-01), its amount only when given, composed the same way.
 * - `readRecurrenceCode(code)`: the recurrence location a code carries and whether it carries a
 *   payment too (a key or a location in its tag 26 to 51), or why it is no such code.
 */
import { buildBrCode, crc16, PIX_GUI, readFields, tlv, toMerchantText } from './brcode.js'

const REC_TAG = '80'
const CRC_FIELD = '6304'

function recTemplate (recLocation: string): string {
  return tlv(REC_TAG, tlv('00', PIX_GUI) + tlv('25', recLocation))
}

function withCrc (payload: string): string {
  return payload + CRC_FIELD + crc16(payload + CRC_FIELD)
}

/** The code of journey 2: the recurrence alone (tag 26 with the GUI only, no amount). */
export function recurrenceCode (input: { recLocation: string, merchantName: string, merchantCity: string }): string {
  const merchantName = toMerchantText(input.merchantName, 25)
  const merchantCity = toMerchantText(input.merchantCity, 15)
  if (merchantName === '' || merchantCity === '') throw new RangeError('merchant name and city need at least one ASCII character')
  return withCrc(tlv('00', '01') + tlv('26', tlv('00', PIX_GUI)) + tlv('52', '0000') + tlv('53', '986') + tlv('58', 'BR') +
    tlv('59', merchantName) + tlv('60', merchantCity) + tlv('62', tlv('05', '***')) + recTemplate(input.recLocation))
}

/** A charge's code (its CRC last, as every code the sandbox makes) with the recurrence added before the CRC. */
export function withRecurrence (code: string, recLocation: string): string {
  if (!code.slice(0, -4).endsWith(CRC_FIELD)) throw new RangeError('a BR Code ends with its CRC (6304)')
  return withCrc(code.slice(0, -CRC_FIELD.length - 4) + recTemplate(recLocation))
}

/**
 * The static code of a contract (journey 4): a static code to `key` (no amount unless given, the payer
 * names it; `txid` in tag 62-05, `***` without one) with the recurrence added. Paid as often as the payer
 * likes; the first payment while the recurrence waits for its payer answers it.
 */
export function contractCode (input: { key: string, recLocation: string, amountCents?: number, txid?: string, merchantName: string, merchantCity: string }): string {
  const { recLocation, ...code } = input
  return withRecurrence(buildBrCode(code), recLocation)
}

export type RecurrenceCode = { ok: true, recLocation: string, payable: boolean } | { ok: false, reason: string }

/** The recurrence a code carries (its tag 80), and whether it carries a payment as well. */
export function readRecurrenceCode (code: string): RecurrenceCode {
  if (typeof code !== 'string' || !/^[\x20-\x7E]+$/.test(code)) return { ok: false, reason: 'BR Code vazio ou com caracteres fora do ASCII imprimível' }
  const read = readFields(code, ['BR Code', 'BR Code'])
  if (!read.ok) return read
  const last = read.fields[read.fields.length - 1]
  if (last.id !== '63' || crc16(code.slice(0, -4)) !== last.value.toUpperCase()) return { ok: false, reason: 'CRC (campo 63) ausente ou que não confere' }
  let recLocation: string | undefined
  let payable = false
  for (const field of read.fields) {
    const id = Number(field.id)
    if (field.id !== REC_TAG && (id < 26 || id > 51)) continue
    const sub = readFields(field.value, [`campo ${field.id}`, `field ${field.id}`])
    if (!sub.ok) return sub
    const get = (subId: string) => sub.fields.find(f => f.id === subId)?.value
    if (get('00')?.toLowerCase() !== PIX_GUI) continue
    if (field.id === REC_TAG) recLocation = get('25')
    else payable = get('01') !== undefined || get('25') !== undefined
  }
  if (recLocation === undefined) return { ok: false, reason: `nenhum campo ${REC_TAG} com GUI ${PIX_GUI} e a location da recorrência (25)` }
  return { ok: true, recLocation, payable }
}
