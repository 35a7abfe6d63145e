import t from 'tap'
import { readFileSync } from 'node:fs'
import semver from 'semver'

/**
 * Which Node runs what. `engines` is the package's promise to whoever installs it: the LTS lines
 * still maintained, 22 (from 22.12) and 24; test/artifact/pack.test.ts installs the packed tarball on
 * both and checks that npm warns of no engine. `devEngines` is the checkout's: its own tests also
 * run on Node 20.19 (the development and CI machine), so every package of the locked tree,
 * development ones too, accepts the Node running them and `npm install` here prints no engine
 * warning. (The lockfile's `overrides` holds light-my-request at 6.6, whose cookie 1 accepts Node 20;
 * an installer gets fastify's newest, whose cookie 2 wants Node 22.)
 *
 * One development package is let through: Efí's SDK for Node, the API Pix client an integrator
 * installs today, declares Node 22 since 2.0 (the lines of its own CI); the flow test that runs it
 * passes on every Node of devEngines, and npm install's one engine warning (EBADENGINE) is about it.
 */
const RUNS_ON_OLDER_NODE: Record<string, string> = {
  'sdk-node-apis-efi': 'test/flows/efi-sdk.test.ts runs it on the Node running the tests',
}

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string }
  devEngines: { runtime: { name: string, version: string } }
  allowScripts?: Record<string, boolean>
}
const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as {
  packages: Record<string, { version?: string, dev?: boolean, engines?: { node?: string } | string[], hasInstallScript?: boolean }>
}

function nodeRange (entry: { engines?: { node?: string } | string[] }): string | undefined {
  return Array.isArray(entry.engines) ? undefined : entry.engines?.node
}

t.test('engines promises the maintained LTS lines, 22 and 24, and not Node 20, past its end of life', async t => {
  t.equal(semver.minVersion(pkg.engines.node)?.major, 22, `engines.node (${pkg.engines.node}) starts on the 22 line`)
  t.ok(semver.satisfies('24.0.0', pkg.engines.node), 'Node 24, the image\'s')
  t.notOk(semver.satisfies('20.19.0', pkg.engines.node), 'not Node 20')
  t.match(pkg.engines.node, /^>=\d+\.\d+\.\d+$/, 'a plain >=X.Y.Z, the form bin/pix-sandbox.js checks before it starts')
})

t.test('every production dependency accepts the oldest Node of engines', async t => {
  const oldest = semver.minVersion(pkg.engines.node)?.version
  t.ok(oldest, `engines.node (${pkg.engines.node}) has a lowest version`)
  const refusing = Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && !entry.dev && nodeRange(entry) && !semver.satisfies(oldest!, nodeRange(entry)!))
    .map(([path, entry]) => `${path.replace(/^.*node_modules\//, '')}@${entry.version} needs Node ${nodeRange(entry)}`)
  t.same(refusing, [], `engines.node ${pkg.engines.node} promises Node ${oldest}`)
})

t.test('the checkout runs on this Node: devEngines accepts it, and npm install prints no engine warning but the one let through', async t => {
  t.equal(pkg.devEngines.runtime.name, 'node')
  t.ok(semver.satisfies(process.versions.node, pkg.devEngines.runtime.version), `Node ${process.versions.node} is within devEngines ${pkg.devEngines.runtime.version}`)
  const refusing = Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && nodeRange(entry) && !semver.satisfies(process.versions.node, nodeRange(entry)!))
    .filter(([path, entry]) => !(entry.dev && path.replace(/^.*node_modules\//, '') in RUNS_ON_OLDER_NODE))
    .map(([path, entry]) => `${path.replace(/^.*node_modules\//, '')}@${entry.version} needs Node ${nodeRange(entry)}`)
  t.same(refusing, [])
})

/*
 * npm 11 runs a dependency's install script only when package.json's `allowScripts` names it, and
 * `npm ci` warns of every one it does not (npm 10, Node 20's and 22's, runs them all and ignores the
 * field). esbuild's postinstall puts its native binary in place of the JavaScript shim and checks it:
 * allowed, so that the checkout installs the same way on both. An entry is a name (every version) or
 * name@range; `false` denies a script, which covers it too.
 */
t.test('every dependency with an install script is covered by allowScripts, so npm ci warns of none', async t => {
  const entries = Object.entries(pkg.allowScripts ?? {}).map(([key, allowed]) => {
    const at = key.indexOf('@', 1)
    return { name: at === -1 ? key : key.slice(0, at), range: at === -1 ? '*' : key.slice(at + 1), allowed }
  })
  const uncovered = Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && entry.hasInstallScript)
    .map(([path, entry]) => ({ name: path.replace(/^.*node_modules\//, ''), version: entry.version ?? '' }))
    .filter(p => !entries.some(e => e.name === p.name && semver.satisfies(p.version, e.range)))
    .map(p => `${p.name}@${p.version}`)
  t.same(uncovered, [], '`npm install-scripts approve <name>` (or deny) covers one')
  t.same(entries.filter(e => e.allowed).map(e => e.name), ['esbuild'], 'esbuild\'s postinstall runs, and no other script')
})
