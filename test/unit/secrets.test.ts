import t from 'tap'
import type * as crypto from 'node:crypto'
import { createRequire, syncBuiltinESMExports } from 'node:module'

/**
 * sameSecret (server/auth/secrets.ts), how the server compares a clientSecret or the admin token with
 * the one it holds: the right answer for every pair, and one comparison of two digests of one fixed
 * length whatever was sent, so that neither where a guess goes wrong nor its length shows in the time.
 */

// The comparison the server makes, seen by replacing node:crypto's timingSafeEqual for this file:
// syncBuiltinESMExports carries the replacement to the named import in server/auth/secrets.ts.
const compared: Array<[number, number]> = []
const builtinCrypto = createRequire(import.meta.url)('node:crypto') as typeof crypto
const timingSafeEqual = builtinCrypto.timingSafeEqual
builtinCrypto.timingSafeEqual = (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
  compared.push([a.byteLength, b.byteLength])
  return timingSafeEqual(a, b)
}
syncBuiltinESMExports()
t.teardown(() => {
  builtinCrypto.timingSafeEqual = timingSafeEqual
  syncBuiltinESMExports()
})
const { sameSecret } = await import('../../server/auth/secrets.js')

const held = 'pix-sandbox-secret-2026'

t.test('the same secret matches; any other does not', async t => {
  t.equal(sameSecret(held, held), true)
  t.equal(sameSecret(String(held), held), true, 'by value, not by identity')
  const near = [
    'Pix-sandbox-secret-2026', // first character
    'pix-sandbox-secret-2027', // last character
    'PIX-SANDBOX-SECRET-2026', // case
    held.slice(0, -1), // a prefix
    `${held}x`, // longer
    `${held}\0`,
    '',
    ' ' + held,
  ]
  for (const guess of near) t.equal(sameSecret(guess, held), false, JSON.stringify(guess))
  t.equal(sameSecret('', ''), true, 'two empty strings are equal (a caller never holds an empty secret)')
  t.equal(sameSecret('ação', 'ação'), true, 'UTF-8 text')
  t.equal(sameSecret('ação', 'acao'), false)
  t.equal(sameSecret('ação'.normalize('NFD'), 'ação'.normalize('NFC')), false, 'the same text in other bytes is another secret')
})

t.test('whatever the lengths, one comparison of two 32-byte digests, and nothing throws', async t => {
  compared.length = 0
  for (const guess of ['', 'a', held.slice(0, 8), held, 'x'.repeat(10_000)]) sameSecret(guess, held)
  t.same(compared, Array(5).fill([32, 32]))
})
