import t from 'tap'
import { buildTestApp, newAccount } from '../helpers/app.js'
import { cashInBody, createCashIn } from '../helpers/payins.js'
import { decodeWithJsqr, decodeWithZxing, pngOf, quietZoneModules } from '../helpers/brcode-readers.js'

t.test('the QR image of a cash-in is a PNG data URL that decodes back to its pixCode', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  const charge = await createCashIn(app, acc.token, cashInBody({ value: 42.1, generateQrCode: true }))
  t.match(charge.qrCodeImage, /^data:image\/png;base64,/)
  t.equal(decodeWithJsqr(pngOf(charge.qrCodeImage!)), charge.pixCode)
})

t.test('no image unless generateQrCode is true', async t => {
  const app = await buildTestApp(t)
  const acc = await newAccount(app)
  t.notOk('qrCodeImage' in await createCashIn(app, acc.token, cashInBody()))
  t.notOk('qrCodeImage' in await createCashIn(app, acc.token, cashInBody({ generateQrCode: false })))
})

t.test('the QR image has the 4-module quiet zone of ISO/IEC 18004 and decodes with jsqr and @zxing/library alike', async t => {
  const app = await buildTestApp(t)
  // A cash-in's code carries no amount: receivers' names of every length (the code's tag 59, up to 25
  // characters) make codes of several lengths, so they span several QR versions.
  for (const name of ['Ana', 'Padaria São João Ltda', 'Mercado Central Comércio de Alimentos', 'Bar do Zé', 'Loja Ômega Distribuidora']) {
    const acc = await newAccount(app, { name })
    for (const value of [0.01, 1234567.89]) {
      const charge = await createCashIn(app, acc.token, cashInBody({ value, generateQrCode: true }))
      const image = pngOf(charge.qrCodeImage!)
      t.equal(quietZoneModules(image), 4, `${name}, ${value}: quiet zone`)
      t.equal(decodeWithJsqr(image), charge.pixCode, `${name}, ${value}: jsqr`)
      t.equal(decodeWithZxing(image), charge.pixCode, `${name}, ${value}: @zxing/library`)
    }
  }
})
