import t from 'tap'
import { PNG } from 'pngjs'
import jsQRModule from 'jsqr'
import { BinaryBitmap, DecodeHintType, HybridBinarizer, QRCodeReader, RGBLuminanceSource } from '@zxing/library'
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

/**
 * @zxing/library: a second, independent decoder (ZXing's port), with its own binarizer. The image is
 * a pure barcode and is read as one (PURE_BARCODE): the port's generic detector, made for camera
 * frames, misses clean renders whatever their quiet zone (about 2% at 4 pixels a module, most of
 * them at 6 or 8, measured over 200 random codes each), which says nothing about the image.
 */
const PURE = new Map([[DecodeHintType.PURE_BARCODE, true]])

function decodeWithZxing (dataUrl: string): string | null {
  const png = PNG.sync.read(Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64'))
  const pixels = new Int32Array(png.width * png.height)
  for (let i = 0; i < pixels.length; i++) pixels[i] = (png.data[i * 4] << 16) | (png.data[i * 4 + 1] << 8) | png.data[i * 4 + 2]
  const bitmap = new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(pixels, png.width, png.height)))
  try {
    return new QRCodeReader().decode(bitmap, PURE).getText()
  } catch {
    return null
  }
}

/** The quiet zone in modules: the white margin before the top-left finder pattern, whose top row is 7 dark modules. */
function quietZoneModules (dataUrl: string): number {
  const png = PNG.sync.read(Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64'))
  const dark = (x: number, y: number): boolean => png.data[(y * png.width + x) * 4] < 128
  let offset = 0
  while (!dark(offset, offset)) offset++
  let run = 0
  while (dark(offset + run, offset)) run++
  return offset / (run / 7)
}

t.test('the QR image has the 4-module quiet zone of ISO/IEC 18004 and decodes with jsqr and @zxing/library alike', async t => {
  const app = await buildTestApp(t)
  // A cash-in's code carries no amount: receivers' names of every length (the code's tag 59, up to 25
  // characters) make codes of several lengths, so they span several QR versions.
  for (const name of ['Ana', 'Padaria São João Ltda', 'Mercado Central Comércio de Alimentos', 'Bar do Zé', 'Loja Ômega Distribuidora']) {
    const acc = await newAccount(app, { name })
    for (const value of [0.01, 1234567.89]) {
      const charge = await createCashIn(app, acc.token, cashInBody({ value, generateQrCode: true }))
      const image = charge.qrCodeImage!
      t.equal(quietZoneModules(image), 4, `${name}, ${value}: quiet zone`)
      t.equal(decodeDataUrl(image), charge.pixCode, `${name}, ${value}: jsqr`)
      t.equal(decodeWithZxing(image), charge.pixCode, `${name}, ${value}: @zxing/library`)
    }
  }
})
