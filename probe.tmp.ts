import { buildApp } from './server/app.js'
import { readFileSync } from 'node:fs'
const cert = readFileSync('fixtures/certs/default-client.crt.pem', 'utf8')
const app = await buildApp({ config: { seed: 's', clock: 'frozen', clockStart: '2026-03-10T15:00:00.000Z' } })
const basic = 'Basic ' + Buffer.from('pix-sandbox-client:pix-sandbox-secret-2026').toString('base64')
for (const req of [
  { method: 'POST', url: '/oauth/token', headers: { authorization: basic, 'x-ssl-client-cert': encodeURIComponent(cert), 'content-type': 'application/x-www-form-urlencoded' }, payload: 'grant_type=client_credentials&scope=cob.read' },
  { method: 'POST', url: '/oauth/token', headers: { authorization: basic, 'x-ssl-client-cert': encodeURIComponent(cert) }, payload: { grant_type: 'client_credentials' } },
  { method: 'POST', url: '/oauth/token', headers: { authorization: basic, 'x-ssl-client-cert': encodeURIComponent(cert) }, payload: { grant_type: 'password' } },
  { method: 'POST', url: '/oauth/token', headers: { authorization: 'Basic eA==', 'x-ssl-client-cert': encodeURIComponent(cert) }, payload: { grant_type: 'client_credentials' } },
  { method: 'POST', url: '/oauth/token', headers: { 'x-ssl-client-cert': encodeURIComponent(cert) }, payload: { } },
  { method: 'POST', url: '/oauth/token', headers: { 'content-type': 'text/plain' }, payload: 'x' },
  { method: 'GET', url: '/v2/nada' },
  { method: 'POST', url: '/v2/nada', headers: { 'content-type': 'text/plain' }, payload: 'x' },
  { method: 'GET', url: '/v2' },
]) {
  const res = await app.inject(req as never)
  console.log(req.method, req.url, res.statusCode, res.headers['content-type'], res.headers['www-authenticate'] ?? '', res.body.slice(0, 300))
}
await app.close()
