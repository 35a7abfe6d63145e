import t from 'tap'
import { readFileSync } from 'node:fs'
import semver from 'semver'

/**
 * `engines` and the locked dependency tree agree, so `npm install` prints no EBADENGINE warning: every
 * production dependency runs on the oldest Node the package declares, and every package of the tree
 * (development ones too) accepts the Node running this test.
 */

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { engines: { node: string } }
const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8')) as {
  packages: Record<string, { version?: string, dev?: boolean, engines?: { node?: string } | string[] }>
}

function nodeRange (entry: { engines?: { node?: string } | string[] }): string | undefined {
  return Array.isArray(entry.engines) ? undefined : entry.engines?.node
}

t.test('every production dependency accepts the oldest Node of engines', async t => {
  const oldest = semver.minVersion(pkg.engines.node)?.version
  t.ok(oldest, `engines.node (${pkg.engines.node}) has a lowest version`)
  const refusing = Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && !entry.dev && nodeRange(entry) && !semver.satisfies(oldest!, nodeRange(entry)!))
    .map(([path, entry]) => `${path.replace(/^.*node_modules\//, '')}@${entry.version} needs Node ${nodeRange(entry)}`)
  t.same(refusing, [], `engines.node ${pkg.engines.node} promises Node ${oldest}`)
})

t.test('npm install on this Node prints no engine warning', async t => {
  t.ok(semver.satisfies(process.versions.node, pkg.engines.node), `Node ${process.versions.node} is within engines ${pkg.engines.node}`)
  const refusing = Object.entries(lock.packages)
    .filter(([path, entry]) => path !== '' && nodeRange(entry) && !semver.satisfies(process.versions.node, nodeRange(entry)!))
    .map(([path, entry]) => `${path.replace(/^.*node_modules\//, '')}@${entry.version} needs Node ${nodeRange(entry)}`)
  t.same(refusing, [])
})
