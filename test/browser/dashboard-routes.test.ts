import t from 'tap'
import { buildTestApp } from '../helpers/app.js'
import { decodeWithJsqr, pngOf } from '../helpers/brcode-readers.js'

// The files behind the page, without a browser: types, the CSP that forbids inline code, no way out
// of the folder, the QR image route and its input limit, nothing of it in the OpenAPI document.

t.test('the page and its assets are served with their content types and a strict CSP', async (t) => {
  const app = await buildTestApp(t)
  for (const url of ['/dashboard', '/dashboard/']) {
    const res = await app.inject(url)
    t.equal(res.statusCode, 200, url)
    t.equal(res.headers['content-type'], 'text/html; charset=utf-8')
    t.match(res.headers['content-security-policy'], /default-src 'none'; script-src 'self'; style-src 'self'/)
    t.equal(res.headers['x-content-type-options'], 'nosniff')
    t.match(res.body, /<script type="module" src="\/dashboard\/assets\/app\.js"><\/script>/)
    t.notMatch(res.body, /https?:\/\/(?!example\.com)/, 'no reference to another host')
  }
  const types: Record<string, string> = {
    'app.js': 'text/javascript; charset=utf-8',
    'style.css': 'text/css; charset=utf-8',
    'favicon.svg': 'image/svg+xml',
  }
  for (const [file, type] of Object.entries(types)) {
    const res = await app.inject(`/dashboard/assets/${file}`)
    t.equal(res.statusCode, 200, file)
    t.equal(res.headers['content-type'], type, file)
  }
  const js = (await app.inject('/dashboard/assets/app.js')).body
  t.notMatch(js, /innerHTML|outerHTML|insertAdjacentHTML|document\.write/, 'the script never parses data as HTML')
  t.notMatch(js, /https?:\/\//, 'the script talks to no other host')
})

t.test('only the files of the dashboard folder are served', async (t) => {
  const app = await buildTestApp(t)
  for (const url of ['/dashboard/assets/README.md', '/dashboard/assets/..%2F..%2Fpackage.json', '/dashboard/assets/%2e%2e%2fapp.ts', '/dashboard/assets/nope.js']) {
    const res = await app.inject(url)
    t.equal(res.statusCode, 404, url)
    t.equal(res.json().message, 'File not found')
  }
})

t.test('the QR image of a pix code is a PNG that decodes back to the code; long or missing codes are 400', async (t) => {
  const app = await buildTestApp(t)
  const code = '00020101021226770014BR.GOV.BCB.PIX2555pix.example.com/qr/93598be0-1bd0-4997-8318-81776a1d8a995204000053039865802BR5907EMPRESA6009SAO PAULO62070503***6304EEAB'
  const res = await app.inject(`/dashboard/qrcode.png?code=${encodeURIComponent(code)}`)
  t.equal(res.statusCode, 200)
  t.equal(res.headers['content-type'], 'image/png')
  t.equal(decodeWithJsqr(pngOf(res.rawPayload)), code)

  const long = await app.inject(`/dashboard/qrcode.png?code=${'0'.repeat(501)}`)
  t.equal(long.statusCode, 400)
  t.match(long.json().message, /500/)
  t.equal((await app.inject('/dashboard/qrcode.png')).statusCode, 400)
  t.equal((await app.inject('/dashboard/qrcode.png?code=')).statusCode, 400)
})

t.test('the dashboard stays out of the OpenAPI document', async (t) => {
  const app = await buildTestApp(t)
  const doc = (await app.inject('/openapi.json')).json()
  t.notOk(Object.keys(doc.paths).some(p => p.startsWith('/dashboard')))
})
