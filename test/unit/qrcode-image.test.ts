import t from 'tap'
import { PNG } from 'pngjs'
import jsQRModule from 'jsqr'
import { buildTestApp, newAccount } from '../helpers/app.js'
import { cashInBody, createCashIn } from '../helpers/payins.js'

// jsqr is CommonJS with an ES-style `export default` in its types: under NodeNext the function is `.default`.
type Decode = typeof jsQRModule.default
const jsQR: Decode = (jsQRModule as unknown as { default?: Decode }).default ?? (jsQRModule as unknown as Decode)

function decodeDataUrl (dataUrl: string): string | null {
  const png = PNG.sync.read(Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64'))
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null
}

t.test('the QR image of a cash-in is a PNG data URL that decodes back to its pixCode', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const charge = await createCashIn(app, acc.token, cashInBody({ value: 42.1, generateQrCode: true }))
  t.match(charge.qrCodeImage, /^data:image\/png;base64,/)
  t.equal(decodeDataUrl(charge.qrCodeImage!), charge.pixCode)
})

t.test('no image unless generateQrCode is true', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  t.notOk('qrCodeImage' in await createCashIn(app, acc.token, cashInBody()))
  t.notOk('qrCodeImage' in await createCashIn(app, acc.token, cashInBody({ generateQrCode: false })))
})
