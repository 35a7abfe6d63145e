import { readFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { packageRoot } from './paths.js'
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
  const read = (name: string): string => readFileSync(join(dir, name), 'utf8')
  const main = JSON.parse(read('default.json')) as {
    institution: Institution
    accountDefaults: AccountDefaults
    accounts: Array<Omit<FixtureAccount, 'certificatePem' | 'privateKeyPem'> & { certificate: string, privateKey: string }>
  }
  const directory = existsSync(join(dir, 'directory.json'))
    ? (JSON.parse(read('directory.json')) as { entries: DirectoryEntry[] }).entries
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
