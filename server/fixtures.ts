import { readFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { packageRoot } from './paths.js'
import { StartupError } from './errors/startup.js'
import { describeFsError } from './startup.js'
import type { DirectoryEntry, ProviderGroup, SplitFrequency } from './store/state.js'

/**
 * The built-in fixtures (fixtures/ at the package root) or a folder given with --fixtures.
 * Read once at start; reset restores the state they describe.
 */
export interface AccountDefaults {
  balance: number
  providerGroup: ProviderGroup
  documentCheck: boolean
  fee: number
  limits: { perTransaction: number, daily: number, nightly: number }
  cashInMinExpirationSeconds: number
  splitFrequency: SplitFrequency
}

export interface FixtureAccount extends Partial<AccountDefaults> {
  id: number
  name: string
  document: string
  clientId: string
  clientSecret: string
  certificatePem: string
  privateKeyPem: string
}

export interface Institution {
  ispb: string
  name: string
  bankCode: string
  city: string
}

export interface Fixtures {
  institution: Institution
  accountDefaults: AccountDefaults
  accounts: FixtureAccount[]
  directory: DirectoryEntry[]
}

export const builtInFixturesDir = join(packageRoot, 'fixtures')

export function loadFixtures (dir: string = builtInFixturesDir): Fixtures {
  // A file that cannot be read or parsed stops the start with its name (--fixtures is a setting).
  const read = (name: string): string => {
    try {
      return readFileSync(join(dir, name), 'utf8')
    } catch (err) {
      throw new StartupError(`fixtures (--fixtures / SANDBOX_FIXTURES): cannot read ${join(dir, name)}: ${describeFsError(err)}`)
    }
  }
  const parse = (name: string): unknown => {
    try {
      return JSON.parse(read(name))
    } catch (err) {
      if (err instanceof StartupError) throw err
      throw new StartupError(`fixtures (--fixtures / SANDBOX_FIXTURES): ${join(dir, name)} is not valid JSON: ${(err as Error).message}`)
    }
  }
  const main = parse('default.json') as {
    institution: Institution
    accountDefaults: AccountDefaults
    accounts: Array<Omit<FixtureAccount, 'certificatePem' | 'privateKeyPem'> & { certificate: string, privateKey: string }>
  }
  const directory = existsSync(join(dir, 'directory.json'))
    ? (parse('directory.json') as { entries: DirectoryEntry[] }).entries
    : []
  return {
    institution: main.institution,
    accountDefaults: main.accountDefaults,
    accounts: main.accounts.map(({ certificate, privateKey, ...a }) => ({
      ...a,
      certificatePem: read(certificate),
      privateKeyPem: read(privateKey),
    })),
    directory,
  }
}
