import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/**
 * The machine's npm settings as the environment of an npm that another Node runs: the installs of a
 * Node line's binary (scripts/node-line.ts) and of the packed package on each line
 * (test/artifact/pack.test.ts) must reach the registry exactly as the npm running the suite does,
 * behind a company's TLS proxy too. A bare environment loses them, and the registry package of a
 * Node line holds no npm: the `npm` on the PATH is the machine's, but run by that Node, it looks for
 * its global npmrc beside that Node (`<its prefix>/etc/npmrc`, which does not exist) and in the folder
 * it runs in (a temporary project, not the checkout). So this gives it:
 * - the variables Node and npm read for the CA and the proxy, and every `npm_config_*` variable but
 *   those `npm run` sets to describe the npm and Node running it;
 * - the files npm reads its settings from (global and user npmrc) and its cache;
 * - the effective values of the settings that decide which registry npm reaches, through which proxy,
 *   trusting whom (`npm config ls` in the checkout: the checkout's own .npmrc included).
 * The user npmrc is found through HOME as well, which every install is given.
 */

const root = fileURLToPath(new URL('..', import.meta.url))

/** What Node and npm read from the environment for the CA and the proxy, in both cases where both are read. */
const PASSED = ['NODE_EXTRA_CA_CERTS', 'NODE_USE_SYSTEM_CA', 'SSL_CERT_FILE', 'SSL_CERT_DIR',
  'HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy']

/** What `npm run` exports about the npm and Node running the script, not about the machine: wrong for another Node. */
const DESCRIBES_RUNNING_NPM = new Set(['user_agent', 'npm_version', 'node_gyp', 'global_prefix', 'local_prefix', 'prefix'])

/** The files npm reads its settings from, and its cache. */
const FILES = ['globalconfig', 'userconfig', 'cache']

/** The settings that decide which registry npm reaches, through what, trusting whom, and how long it tries. */
const NETWORK = ['registry', 'cafile', 'ca', 'strict-ssl', 'proxy', 'https-proxy', 'noproxy', 'local-address',
  'fetch-retries', 'fetch-retry-factor', 'fetch-retry-mintimeout', 'fetch-retry-maxtimeout', 'fetch-timeout',
  'maxsockets', 'replace-registry-host']
const SCOPED_REGISTRY = /^@[^:]+:registry$/

const envName = (setting: string): string => `npm_config_${setting.replace(/-/g, '_')}`

/**
 * The environment variables that carry the npm settings of `env` (the machine's: process.env) to an
 * npm run by another Node. `npm config ls` runs with `env`, so its `npm` is the one that environment
 * runs: call this before putting another Node first on the PATH.
 */
export async function npmSettings (env: NodeJS.ProcessEnv = process.env): Promise<Record<string, string>> {
  const settings: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue
    if (PASSED.includes(name)) settings[name] = value
    const config = /^npm_config_(.+)$/i.exec(name)
    if (config && !DESCRIBES_RUNNING_NPM.has(config[1].toLowerCase())) settings[name] = value
  }
  const effective = await new Promise<Record<string, unknown>>((resolve, reject) => {
    execFile('npm', ['config', 'ls', '--json'], { cwd: root, env, encoding: 'utf8', timeout: 60_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`npm config ls failed: ${stderr || err.message}`))
      else resolve(JSON.parse(stdout) as Record<string, unknown>)
    })
  })
  for (const [setting, value] of Object.entries(effective)) {
    if (!FILES.includes(setting) && !NETWORK.includes(setting) && !SCOPED_REGISTRY.test(setting)) continue
    if (value === null || value === undefined) continue
    // Lists (ca, noproxy) as npm reads them from one variable: the CAs' PEM blocks one after the other, the hosts by commas.
    const text = Array.isArray(value) ? value.join(setting === 'ca' ? '\n' : ',') : String(value)
    // Set once, lower case: an upper-case variable of the same setting would otherwise compete with it.
    for (const name of Object.keys(settings)) if (name.toLowerCase() === envName(setting)) delete settings[name]
    settings[envName(setting)] = text
  }
  return settings
}

let machine: Promise<Record<string, string>> | undefined
/** npmSettings() of this process's environment, asked once. */
export function machineNpmSettings (): Promise<Record<string, string>> {
  machine ??= npmSettings()
  return machine
}
