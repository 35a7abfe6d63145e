import t, { type Test } from 'tap'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync } from 'node:zlib'
import { launchChromium, packagedChromiumPackage, preferredSource, untar, unpackChromium, walkThroughSources } from './chromium.js'

/** Which browser the tests pick, how the packaged one is unpacked, and how a browser that cannot start fails. */

function scratch (t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'pix-chromium-test-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

t.test('Debian\'s chromium when installed, else the packaged one; PIX_TEST_CHROMIUM=packaged forces the packaged one', async t => {
  const installed = process.execPath
  const absent = '/nonexistent/chromium'
  t.equal(preferredSource({}, installed), 'system')
  t.equal(preferredSource({}, absent), 'packaged')
  t.equal(preferredSource({ PIX_TEST_CHROMIUM: 'auto' }, installed), 'system')
  t.equal(preferredSource({ PIX_TEST_CHROMIUM: 'packaged' }, installed), 'packaged')
  t.throws(() => preferredSource({ PIX_TEST_CHROMIUM: 'firefox' }, installed), /PIX_TEST_CHROMIUM=firefox is not a choice: "auto" .* or "packaged"/)
  t.same(walkThroughSources({}, installed), ['system', 'packaged'], 'the walk-through also runs on the packaged browser where Debian\'s is installed')
  t.same(walkThroughSources({}, absent), ['packaged'])
  t.same(walkThroughSources({ PIX_TEST_CHROMIUM: 'packaged' }, installed), ['packaged'])
})

t.test('a browser that cannot start is an error naming it, the reason and what to do', async t => {
  await t.rejects(launchChromium('system', { systemPath: '/nonexistent/chromium' }), {
    message: /^Debian's Chromium \(\/nonexistent\/chromium\) could not start: not installed: install it with `apt-get install chromium`, or run with PIX_TEST_CHROMIUM=packaged/,
  })
  const notABrowser = join(scratch(t), 'chromium')
  writeFileSync(notABrowser, '#!/bin/sh\necho "error while loading shared libraries: libnss3.so" >&2\nexit 127\n', { mode: 0o755 })
  await t.rejects(launchChromium('system', { systemPath: notABrowser }), { message: /could not start: .*apt-get install chromium/ })

  // A packaged copy whose binary is not a browser: the message names the package and the folder.
  const cacheRoot = scratch(t)
  const { version } = packagedChromiumPackage()
  mkdirSync(join(cacheRoot, version))
  writeFileSync(join(cacheRoot, version, 'chromium'), readFileSync(notABrowser), { mode: 0o755 })
  await t.rejects(launchChromium('packaged', { cacheRoot }), {
    message: new RegExp(`^the packaged Chromium \\(@sparticuz/chromium ${version.replace(/\./g, '\\.')}\\) at ${join(cacheRoot, version)} could not start: .*npm install`),
  })
})

/** A pack laid out as @sparticuz/chromium's bin folder, with tiny files, made with the system's tar. */
function fakePack (dir: string): string {
  const bin = join(dir, 'bin')
  mkdirSync(bin)
  writeFileSync(join(bin, 'chromium.br'), brotliCompressSync(Buffer.from('#!/bin/sh\necho fake chromium\n')))
  const tarBr = (name: string, files: Record<string, string>): void => {
    const src = join(dir, `src-${name}`)
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(join(src, path, '..'), { recursive: true })
      writeFileSync(join(src, path), content)
    }
    const tar = execFileSync('tar', ['--format=ustar', '-C', src, '-cf', '-', ...Object.keys(files).map(p => p.split('/')[0]).filter((p, i, all) => all.indexOf(p) === i)])
    writeFileSync(join(bin, `${name}.tar.br`), brotliCompressSync(tar))
  }
  tarBr('al2023', { 'lib/libnss3.so': 'nss', 'lib/libexpat.so.1': 'expat' })
  tarBr('swiftshader', { 'libGLESv2.so': 'gles' })
  tarBr('fonts', { 'fonts.conf': '<fontconfig/>', 'fonts/Open_Sans/OpenSans-Regular.ttf': 'font' })
  return bin
}

t.test('the pack is unpacked once, whole, into a folder per version, even by two unpacks at once', async t => {
  const dir = scratch(t)
  const bin = fakePack(dir)
  const cacheRoot = join(dir, 'cache')
  const [a, b] = await Promise.all([unpackChromium(bin, cacheRoot, '1.2.3'), unpackChromium(bin, cacheRoot, '1.2.3')])
  t.equal(a, join(cacheRoot, '1.2.3'))
  t.equal(b, a)
  t.same(readdirSync(cacheRoot), ['1.2.3'], 'no staging folder is left behind')
  t.equal(readFileSync(join(a, 'chromium'), 'utf8'), '#!/bin/sh\necho fake chromium\n')
  t.equal(statSync(join(a, 'chromium')).mode & 0o111, 0o111, 'the binary is executable')
  t.equal(readFileSync(join(a, 'lib', 'libnss3.so'), 'utf8'), 'nss')
  t.equal(readFileSync(join(a, 'libGLESv2.so'), 'utf8'), 'gles', 'swiftshader sits beside the binary, where Chromium looks for it')
  t.equal(readFileSync(join(a, 'fonts', 'fonts', 'Open_Sans', 'OpenSans-Regular.ttf'), 'utf8'), 'font')
  t.match(readFileSync(join(a, 'fonts', 'pix-sandbox.conf'), 'utf8'), `<dir>${join(a, 'fonts', 'fonts')}</dir>`)

  writeFileSync(join(a, 'chromium'), 'kept')
  t.equal(await unpackChromium(bin, cacheRoot, '1.2.3'), a)
  t.equal(readFileSync(join(a, 'chromium'), 'utf8'), 'kept', 'a complete copy is reused, not unpacked again')

  rmSync(join(bin, 'fonts.tar.br'))
  await t.rejects(unpackChromium(bin, cacheRoot, '9.9.9'), { code: 'ENOENT' })
  t.same(readdirSync(cacheRoot), ['1.2.3'], 'a failed unpack leaves nothing behind')
})

t.test('processes starting together unpack once: the others wait for the copy of the one holding the lock, and a stale lock is taken over', async t => {
  const dir = scratch(t)
  const bin = fakePack(dir)
  const cacheRoot = join(dir, 'cache')
  mkdirSync(join(cacheRoot, '1.2.3.lock'), { recursive: true })
  let done = false
  const waiting = unpackChromium(bin, cacheRoot, '1.2.3').then(folder => { done = true; return folder })
  await new Promise(resolve => setTimeout(resolve, 400))
  t.equal(done, false, 'it waits while another process holds the lock')
  t.same(readdirSync(cacheRoot), ['1.2.3.lock'], 'and unpacks nothing meanwhile')
  rmSync(join(cacheRoot, '1.2.3.lock'), { recursive: true })
  t.equal(await waiting, join(cacheRoot, '1.2.3'), 'the lock released without a copy, it unpacks')
  t.same(readdirSync(cacheRoot), ['1.2.3'])

  mkdirSync(join(cacheRoot, '4.5.6.lock'))
  const old = new Date(Date.now() - 180_000)
  utimesSync(join(cacheRoot, '4.5.6.lock'), old, old)
  t.equal(await unpackChromium(bin, cacheRoot, '4.5.6'), join(cacheRoot, '4.5.6'), 'a lock left by a process that died is taken over')
  t.same(readdirSync(cacheRoot).sort(), ['1.2.3', '4.5.6'])
})

t.test('an archive entry outside the folder, or a link, is refused', async t => {
  const dir = scratch(t)
  const header = (name: string, type: string): Buffer => {
    const h = Buffer.alloc(1024)
    h.write(name, 0)
    h.write('0000644\0', 100)
    h.write('00000000000\0', 124)
    h.write(type, 156)
    h.write('ustar\0', 257)
    return h
  }
  t.throws(() => untar(header('../evil', '0'), dir), /archive entry \.\.\/evil points outside/)
  t.throws(() => untar(header('a/../../evil', '0'), dir), /points outside/)
  t.throws(() => untar(header('link', '2'), dir), /archive entry link is of type 2; only files and folders/)
  t.equal(existsSync(join(dir, '..', 'evil')), false)
})
