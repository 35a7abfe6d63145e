import { PNG } from 'pngjs'
import jsQRModule from 'jsqr'
import { BinaryBitmap, DecodeHintType, HybridBinarizer, QRCodeReader, RGBLuminanceSource } from '@zxing/library'
import { parseTLV, type TLV } from 'pix-qr-code-detail'

/**
 * Readers of BR Codes and of their QR images that nobody here wrote, as the tests use them:
 * pix-qr-code-detail's TLV reader (the one of Efí's SDK), jsqr and @zxing/library.
 */

/**
 * The value at a tag path of a BR Code (`'26', '25'`), as pix-qr-code-detail reads it; tag 80, which
 * it leaves whole (it knows no template there), is read as TLV in turn.
 */
export function tagOf (code: string | TLV[], ...path: string[]): string | undefined {
  const [head, ...rest] = path
  const found = (typeof code === 'string' ? parseTLV(code) : code).find(x => x.tag === head)
  if (found === undefined || rest.length === 0) return found?.value
  return tagOf(found.children ?? parseTLV(found.value), ...rest)
}

/** A PNG, from its bytes or a data URL. */
export function pngOf (image: Buffer | string): PNG {
  return PNG.sync.read(typeof image === 'string' ? Buffer.from(image.replace(/^data:image\/png;base64,/, ''), 'base64') : image)
}

// jsqr is CommonJS with an ES-style `export default` in its types: under NodeNext the function is `.default`.
type Decode = typeof jsQRModule.default
const jsQR: Decode = (jsQRModule as unknown as { default?: Decode }).default ?? (jsQRModule as unknown as Decode)

/** The text jsqr reads in the image, or null. */
export function decodeWithJsqr (png: PNG): string | null {
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null
}

/**
 * The text @zxing/library (ZXing's port, a second decoder with its own binarizer) reads, or null. The
 * image is a pure barcode and is read as one (PURE_BARCODE): the port's generic detector, made for
 * camera frames, misses clean renders whatever their quiet zone (about 2% at 4 pixels a module, most
 * of them at 6 or 8, measured over 200 random codes each), which says nothing about the image.
 */
export function decodeWithZxing (png: PNG): string | null {
  const pixels = new Int32Array(png.width * png.height)
  for (let i = 0; i < pixels.length; i++) pixels[i] = (png.data[i * 4] << 16) | (png.data[i * 4 + 1] << 8) | png.data[i * 4 + 2]
  const bitmap = new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(pixels, png.width, png.height)))
  try {
    return new QRCodeReader().decode(bitmap, new Map([[DecodeHintType.PURE_BARCODE, true]])).getText()
  } catch {
    return null
  }
}

/** The quiet zone in modules: the white margin before the top-left finder pattern, whose top row is 7 dark modules. */
export function quietZoneModules (png: PNG): number {
  const dark = (x: number, y: number): boolean => png.data[(y * png.width + x) * 4] < 128
  let offset = 0
  while (!dark(offset, offset)) offset++
  let run = 0
  while (dark(offset + run, offset)) run++
  return offset / (run / 7)
}

/**
 * The image of an SVG QR code as the `qrcode` package draws it (a white square, then one path of
 * horizontal black runs, `M x y.5 h n m dx dy h n ...`, one unit a module), painted at `scale` pixels a
 * module: so the decoders above read what an SVG data URI shows. Any other SVG throws.
 */
export function pngOfSvg (svg: string, scale = 4): PNG {
  const size = /viewBox="0 0 (\d+) (\d+)"/.exec(svg)
  const path = /<path stroke="#000000" d="([^"]+)"/.exec(svg)
  if (size === null || path === null) throw new Error('not an SVG of the qrcode package')
  const modules = Number(size[1])
  const png = new PNG({ width: modules * scale, height: modules * scale })
  png.data.fill(255)
  let x = 0
  let y = 0
  for (const [, command, a, b] of path[1].matchAll(/([MmHh])(-?[\d.]+)(?:[ ,](-?[\d.]+))?/g)) {
    if (command === 'M') { x = Number(a); y = Math.floor(Number(b)) } else if (command === 'm') { x += Number(a); y += Math.round(Number(b)) } else {
      const run = command === 'h' ? Number(a) : Number(a) - x
      for (let i = 0; i < run; i++) {
        for (let dy = 0; dy < scale; dy++) {
          for (let dx = 0; dx < scale; dx++) {
            const at = (((y * scale) + dy) * png.width + ((x + i) * scale) + dx) * 4
            png.data[at] = png.data[at + 1] = png.data[at + 2] = 0
          }
        }
      }
      x += run
    }
  }
  return png
}
