import type { RoutesPlugin } from '../route-plugin.js'
import { Type } from '@sinclair/typebox'
import { readdirSync, readFileSync } from 'node:fs'
import { extname, join } from 'node:path'
import QRCode from 'qrcode'
import { ASYNC_ERROR_CODES } from '../domain/async-errors.js'
import { QR_IMAGE_OPTIONS } from '../domain/qr-image.js'
import { EVENT_TYPES } from '../store/state.js'
import { Refusal } from '../errors/refusal.js'
import { packageRoot } from '../paths.js'

/**
 * The dashboard (docs/dashboard.md): one static page, one vanilla JS module and one stylesheet from
 * server/dashboard, served by the sandbox itself so it works with no network beyond it. The page reads
 * and steers everything through /__sandbox; the only thing computed here is the QR image of a charge.
 */

// The build compiles TypeScript only, so the page is always read from server/dashboard (the image ships it).
const DIR = join(packageRoot, 'server', 'dashboard')

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
}

// Nothing outside the sandbox, no inline script or style: data shown by the page can never run.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

interface Asset { body: Buffer, type: string }

const loaded = new Map<string, Map<string, Asset>>()

/**
 * Read once per process: the set of servable files is fixed, so no request path ever reaches the file
 * system, and the apps a process builds (a test file's, an integrator's startSandbox) share them.
 * `deliveryTypes`: every delivery event type of the registry's dialects, in its order.
 */
function loadAssets (deliveryTypes: readonly string[]): Map<string, Asset> {
  const key = deliveryTypes.join(',')
  const known = loaded.get(key)
  if (known !== undefined) return known
  const assets = new Map<string, Asset>()
  for (const name of readdirSync(DIR)) {
    const type = TYPES[extname(name)]
    if (type) assets.set(name, { body: readFileSync(join(DIR, name)), type })
  }
  // What the page needs from the server's own lists, as a module it imports: one list, never a copy.
  // The delivery event types are the dialects' (their descriptors' `deliveries`): a new dialect's show up with no edit of the page.
  const lists = { ASYNC_ERROR_CODES, EVENT_TYPES, DELIVERY_TYPES: deliveryTypes }
  assets.set('lists.js', { body: Buffer.from(Object.entries(lists).map(([name, list]) => `export const ${name} = ${JSON.stringify(list)}\n`).join('')), type: TYPES['.js'] })
  // Kept once whole: a read that failed part way leaves nothing for the next app to find.
  loaded.set(key, assets)
  return assets
}

const dashboardRoutes: RoutesPlugin = async (app) => {
  const assets = loadAssets(app.sandbox.deliveries.types)
  const page = assets.get('index.html')!

  const send = (reply: import('fastify').FastifyReply, asset: Asset) => reply
    .header('content-type', asset.type)
    .header('cache-control', 'no-cache')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', CSP)
    .header('referrer-policy', 'no-referrer')
    .send(asset.body)

  app.get('/dashboard', { schema: { hide: true } }, async (_request, reply) => send(reply, page))
  app.get('/dashboard/', { schema: { hide: true } }, async (_request, reply) => send(reply, page))

  app.get('/dashboard/assets/:file', {
    schema: { hide: true, params: Type.Object({ file: Type.String({ maxLength: 100 }) }) },
  }, async (request, reply) => {
    const asset = assets.get(request.params.file)
    return asset ? send(reply, asset) : reply.send(new Refusal('NOT_FOUND', 'File not found'))
  })

  app.get('/dashboard/qrcode.png', {
    schema: {
      hide: true,
      querystring: Type.Object({ code: Type.String({ minLength: 1, maxLength: 500 }) }),
    },
  }, async (request, reply) => {
    // Drawn as a cash-in's image is (whole pixels per module, the 4-module quiet zone): at a fixed width
    // of 240 with a margin of 2, @zxing/library read none of them.
    const png = await QRCode.toBuffer(request.query.code, QR_IMAGE_OPTIONS)
    return reply
      .header('content-type', 'image/png')
      .header('cache-control', 'private, max-age=3600')
      .header('x-content-type-options', 'nosniff')
      .send(png)
  })
}

export default dashboardRoutes
