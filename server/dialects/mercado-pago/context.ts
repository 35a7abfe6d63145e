import QRCode from 'qrcode'
import type { FastifyRequest } from 'fastify'
import { QR_IMAGE_OPTIONS } from '../../domain/qr-image.js'
import { isLocationHost } from '../../domain/payload-locations.js'
import type { Sandbox } from '../../sandbox.js'
import type { Account, Transaction } from '../../store/state.js'
import { chargeData } from '../../services/charge-records.js'
import { paymentOf, paymentView, PAYMENT_ID_BASE, TXID_PREFIX, type PaymentView } from './views.js'
import { paymentNotFound } from './errors.js'

/** PNG images of codes already drawn (derived from the codes alone: a cache, not state), the newest kept. */
const QR_CACHE_SIZE = 500
const images = new Map<string, string>()

async function qrImage (pixCode: string): Promise<string> {
  const cached = images.get(pixCode)
  if (cached !== undefined) return cached
  const url = await QRCode.toDataURL(pixCode, QR_IMAGE_OPTIONS)
  const base64 = url.slice(url.indexOf(',') + 1)
  images.set(pixCode, base64)
  if (images.size > QR_CACHE_SIZE) images.delete(images.keys().next().value!)
  return base64
}

/** Where payers reach the sandbox (its ticket pages): --public-url, else the Host the request was sent to. */
export function baseUrlOf (request: FastifyRequest): string {
  const publicUrl = request.server.sandbox.config.publicUrl
  if (publicUrl !== undefined) return publicUrl.replace(/\/$/, '')
  const host = request.headers.host
  const scheme = request.protocol === 'https' ? 'https' : 'http'
  if (typeof host === 'string' && isLocationHost(host)) return `${scheme}://${host.toLowerCase()}`
  const port = request.server.sandbox.config.port
  return `${scheme}://localhost${port === 0 ? '' : `:${port}`}`
}

/** The payment of an id in a path, of this account only (another account's is not found, as production answers). */
export function findPayment (sb: Sandbox, account: Account, id: string): Transaction {
  if (!/^\d{1,15}$/.test(id)) throw paymentNotFound()
  const tx = sb.store.transactionByRef(`txid:${TXID_PREFIX}${id}`)
  if (tx === undefined || tx.accountId !== account.id || paymentOf(tx) === undefined) throw paymentNotFound()
  return tx
}

/** The txid of a payment id. */
export const txidOfPayment = (paymentId: number): string => `${TXID_PREFIX}${paymentId}`
export const paymentIdOfSeq = (seq: number): number => PAYMENT_ID_BASE + seq

/** The payment objects of records, their QR images drawn first. */
export async function paymentViews (sb: Sandbox, request: FastifyRequest, account: Account, txs: readonly Transaction[], refundsOf: (tx: Transaction) => readonly Transaction[]): Promise<PaymentView[]> {
  await Promise.all(txs.map(tx => qrImage(chargeData(tx).pixCode ?? '')))
  const ctx = { baseUrl: baseUrlOf(request), qrImage: (code: string) => images.get(code) ?? '', version: sb.version }
  return txs.map(tx => paymentView(tx, refundsOf(tx), account, ctx))
}
