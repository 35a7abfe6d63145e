import type { Dialect } from './types.js'
import { gateway } from './gateway/index.js'
import { apiPix } from './api-pix/index.js'
import { mercadoPago } from './mercado-pago/index.js'
import { efi } from './efi/index.js'

/**
 * The dialects the sandbox speaks, in order: each a folder of server/dialects/ with one descriptor
 * (types.ts). The order is the one their notifiers hear each domain event in, their error families are
 * asked in, and their routes, tags and checks come in. A new dialect is its folder and one line here.
 */
export const dialects: readonly Dialect[] = [
  gateway,
  apiPix,
  mercadoPago,
  efi,
]
