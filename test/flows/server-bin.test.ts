import t, { type Test } from 'tap'
import { childEnv } from '../helpers/process.js'
import { spawn } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ConfigSchema } from '../../server/config.js'

/**
 * bin/pix-sandbox.js, the package's command: argv pass-through to dist/server/main.js, a clear word
 * when dist is missing, the sources in a checkout, and the server's own `--help` and flag checks from
 * any working directory. test/artifact/pack.test.ts runs the command from a real installed package.
 */

const root = fileURLToPath(new URL('../..', import.meta.url))
const bin = join(root, 'bin', 'pix-sandbox.js')
const main = fileURLToPath(new URL('../../server/main.ts', import.meta.url))
const tsx = import.meta.resolve('tsx')

function run (file: string, args: string[], cwd: string, nodeArgs: string[] = []): Promise<{ code: number | null, stdout: string, stderr: string }> {
  return new Promise(resolve => {
    const child = spawn(process.execPath, [...nodeArgs, file, ...args], { cwd, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...childEnv() }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString() })
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
    child.on('exit', code => resolve({ code, stdout, stderr }))
  })
}

/** A copy of the command in a package folder of its own, with `dist/server/main.js` when given. */
function fakePackage (t: Test, main?: string): string {
  const pkg = mkdtempSync(join(tmpdir(), 'pix-sandbox-bin-'))
  t.teardown(() => rmSync(pkg, { recursive: true, force: true }))
  mkdirSync(join(pkg, 'bin'))
  copyFileSync(bin, join(pkg, 'bin', 'pix-sandbox.js'))
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'pix-sandbox', type: 'module' }))
  if (main !== undefined) {
    mkdirSync(join(pkg, 'dist', 'server'), { recursive: true })
    writeFileSync(join(pkg, 'dist', 'server', 'main.js'), main)
  }
  return pkg
}

t.test('--help from any working directory lists every flag and environment variable', async t => {
  const res = await run(main, ['--help'], tmpdir(), ['--import', tsx])
  t.equal(res.code, 0, res.stderr)
  for (const s of Object.values(ConfigSchema.properties)) {
    const { flag, env } = (s as unknown as { setting: { flag: string, env: string } }).setting
    t.match(res.stdout, `--${flag}`, `lists --${flag}`)
    t.match(res.stdout, env, `lists ${env}`)
  }
})

t.test('`serve` is the default command: `serve --help` is the server\'s help, `serve` with bad flags its exit code 2', async t => {
  const help = await run(main, ['serve', '--help'], tmpdir(), ['--import', tsx])
  t.equal(help.code, 0, help.stderr)
  t.match(help.stdout, /^Usage: pix-sandbox \[serve\] \[--flag value \.\.\.\]/)
  t.match(help.stdout, 'pix-sandbox help   lists the commands')
  const bad = await run(main, ['serve', '--port', 'abc'], tmpdir(), ['--import', tsx])
  t.equal(bad.code, 2)
  t.match(bad.stderr, 'port')
})

t.test('bad flags reach the server and stop it with exit code 2', async t => {
  const res = await run(main, ['--port', 'abc', '--settlement-delay-ms', '-1'], tmpdir(), ['--import', tsx])
  t.equal(res.code, 2)
  t.match(res.stderr, 'port')
  t.match(res.stderr, 'settlementDelayMs')
})

t.test('an installed, built package runs dist/server/main.js with the arguments untouched', async t => {
  const pkg = fakePackage(t, 'process.stdout.write(JSON.stringify({ compiled: true, argv: process.argv.slice(2) }))\n')
  const res = await run(join(pkg, 'bin', 'pix-sandbox.js'), ['--port', '9', '--seed=a b', '--help'], tmpdir())
  t.equal(res.code, 0, res.stderr)
  t.same(JSON.parse(res.stdout), { compiled: true, argv: ['--port', '9', '--seed=a b', '--help'] })
})

t.test('`serve` and flags run the server; a command runs dist/cli/bin.js, which serving never loads', async t => {
  const pkg = fakePackage(t, 'process.stdout.write(JSON.stringify({ served: true, argv: process.argv.slice(2) }))\n')
  mkdirSync(join(pkg, 'dist', 'cli'))
  writeFileSync(join(pkg, 'dist', 'cli', 'bin.js'), 'process.stdout.write(JSON.stringify({ command: true, argv: process.argv.slice(2) }))\n')
  const ran = async (args: string[]) => JSON.parse((await run(join(pkg, 'bin', 'pix-sandbox.js'), args, tmpdir())).stdout)
  t.same(await ran([]), { served: true, argv: [] })
  t.same(await ran(['serve', '--port', '9']), { served: true, argv: ['serve', '--port', '9'] }, '`serve` is the default command, said out loud')
  t.same(await ran(['--port', '9']), { served: true, argv: ['--port', '9'] })
  t.same(await ran(['help']), { command: true, argv: ['help'] })
  t.same(await ran(['clock', 'advance', '1h', '--json']), { command: true, argv: ['clock', 'advance', '1h', '--json'] })
  t.same(await ran(['nonsense']), { command: true, argv: ['nonsense'] }, 'the command line says what it does not know')
  // The options of every command may come before it: they are the command line's, not the server's flags.
  t.same(await ran(['--json', 'clock']), { command: true, argv: ['--json', 'clock'] })
  t.same(await ran(['--url', 'http://127.0.0.1:9', '--json', 'clock', 'advance', '1h']), { command: true, argv: ['--url', 'http://127.0.0.1:9', '--json', 'clock', 'advance', '1h'] })
  t.same(await ran(['--url=http://127.0.0.1:9', 'tail']), { command: true, argv: ['--url=http://127.0.0.1:9', 'tail'] })
  t.same(await ran(['--admin-token', 'secret', 'reset']), { command: true, argv: ['--admin-token', 'secret', 'reset'] })
  t.same(await ran(['--json']), { command: true, argv: ['--json'] }, 'no server flag: the command line, which says what it takes')
  // --admin-token is a server flag too: without a command after it, it serves.
  t.same(await ran(['--admin-token', 'secret']), { served: true, argv: ['--admin-token', 'secret'] })
  t.same(await ran(['--admin-token', 'secret', '--port', '9']), { served: true, argv: ['--admin-token', 'secret', '--port', '9'] })
})

t.test('a package without its compiled code says so, and runs nothing', async t => {
  const pkg = fakePackage(t)
  const res = await run(join(pkg, 'bin', 'pix-sandbox.js'), [], tmpdir())
  t.equal(res.code, 1)
  t.equal(res.stdout, '')
  t.equal(res.stderr, `pix-sandbox: ${join(pkg, 'dist', 'server', 'main.js')} is missing: the package is incomplete, install it again\n`)
})

/**
 * A checkout: the package's folder with its TypeScript sources (the published package has none) and
 * its dependencies, tsx and semver among them (linked from this checkout's). Its package.json
 * promises installers only a Node newer than this one (engines) and runs its tools on this one
 * (devEngines), as the real one does on Node 20.19.
 */
function fakeCheckout (t: Test, devEngines: string): string {
  const pkg = fakePackage(t, 'process.stdout.write(JSON.stringify({ compiled: true }))\n')
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'pix-sandbox', type: 'module', engines: { node: '>=99.0.0' }, devEngines: { runtime: { name: 'node', version: devEngines } } }))
  mkdirSync(join(pkg, 'cli'))
  // TypeScript only tsx runs: a type annotation, and an import of the .ts file by its .js name.
  writeFileSync(join(pkg, 'cli', 'bin.ts'), 'import { argv } from \'./argv.js\'\nconst ran: string = \'cli sources\'\nprocess.stdout.write(JSON.stringify({ ran, argv }))\n')
  writeFileSync(join(pkg, 'cli', 'argv.ts'), 'export const argv: string[] = process.argv.slice(2)\n')
  mkdirSync(join(pkg, 'server'))
  writeFileSync(join(pkg, 'server', 'main.ts'), 'const ran: string = \'server sources\'\nprocess.stdout.write(JSON.stringify({ ran, argv: process.argv.slice(2) }))\n')
  mkdirSync(join(pkg, 'node_modules'))
  for (const dependency of ['tsx', 'semver']) symlinkSync(join(root, 'node_modules', dependency), join(pkg, 'node_modules', dependency))
  return pkg
}

t.test('in a checkout, on a Node its devEngines accept and its engines do not, a command and the server run from the TypeScript sources', async t => {
  const pkg = fakeCheckout(t, `>=${process.versions.node.split('.')[0]}`)
  const ran = async (args: string[]) => {
    const res = await run(join(pkg, 'bin', 'pix-sandbox.js'), args, tmpdir())
    t.equal(res.stderr, '', `${args.join(' ')}: no complaint`)
    return JSON.parse(res.stdout) as unknown
  }
  t.same(await ran(['help']), { ran: 'cli sources', argv: ['help'] })
  t.same(await ran(['clock', 'advance', '1h', '--json']), { ran: 'cli sources', argv: ['clock', 'advance', '1h', '--json'] })
  t.same(await ran(['serve', '--port', '9']), { ran: 'server sources', argv: ['serve', '--port', '9'] }, 'the sources even where dist/ was built')
})

t.test('in a checkout, a Node its devEngines do not accept, or dependencies not installed, is one line saying what to do', async t => {
  const pkg = fakeCheckout(t, '>=99.0.0')
  const old = await run(join(pkg, 'bin', 'pix-sandbox.js'), ['help'], tmpdir())
  t.equal(old.code, 1)
  t.equal(old.stderr, `pix-sandbox: this checkout needs Node >=99.0.0 (devEngines), this is ${process.version}\n`)
  t.equal(old.stdout, '')
  rmSync(join(pkg, 'node_modules'), { recursive: true })
  const bare = await run(join(pkg, 'bin', 'pix-sandbox.js'), ['help'], tmpdir())
  t.equal(bare.code, 1)
  t.equal(bare.stderr, 'pix-sandbox: this checkout\'s dependencies are not installed: run `npm ci` first\n')
})

t.test('this checkout: `npm run cli -- help` lists the commands on the Node running the tests (Node 20.19 included, which engines does not promise)', async t => {
  const res = await new Promise<{ code: number | null, stdout: string, stderr: string }>(resolve => {
    const child = spawn('npm', ['run', '--silent', 'cli', '--', 'help'], { cwd: root, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...childEnv() }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString() })
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString() })
    child.on('exit', code => resolve({ code, stdout, stderr }))
  })
  t.equal(res.code, 0, res.stderr)
  t.match(res.stdout, /^Usage: pix-sandbox \[serve\] \[--flag value \.\.\.\]/)
  t.match(res.stdout, /\n {2}account {3}create an isolated account/)
  t.equal(res.stderr, '')
})

t.test('a Node older than engines is told which one the package needs, in one line', async t => {
  const pkg = fakePackage(t, 'process.stdout.write("started")\n')
  const withEngines = (node: string) => writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'pix-sandbox', type: 'module', engines: { node } }))

  withEngines('>=99.1.0')
  const old = await run(join(pkg, 'bin', 'pix-sandbox.js'), ['--version'], tmpdir())
  t.equal(old.code, 1)
  t.equal(old.stderr, `pix-sandbox: needs Node >=99.1.0, this is ${process.version}: install a newer Node\n`)
  t.equal(old.stdout, '', 'the server never starts')

  const [major, minor] = process.versions.node.split('.').map(Number)
  for (const node of [`>=${major}.${minor}`, `>=${major}.${minor}.0`, `>=${major - 1}.99.99`, `>= ${major}`]) {
    withEngines(node)
    const res = await run(join(pkg, 'bin', 'pix-sandbox.js'), [], tmpdir())
    t.equal(res.stdout, 'started', `Node ${process.version} satisfies ${node}`)
  }
  withEngines(`>=${major}.${minor + 1}.0`)
  t.equal((await run(join(pkg, 'bin', 'pix-sandbox.js'), [], tmpdir())).code, 1, `Node ${process.version} is older than ${major}.${minor + 1}.0`)
})
