import type { Command } from '../command.js'
import { account } from './account.js'
import { clock } from './clock.js'
import { incoming } from './incoming.js'
import { pay } from './pay.js'
import { rec } from './rec.js'
import { report } from './report.js'
import { reset } from './reset.js'
import { tail } from './tail.js'
import { token } from './token.js'
import { trigger } from './trigger.js'
import { wait } from './wait.js'

/** Every command, in the order `pix-sandbox help` lists them. A new command: its module and one line here. */
export const commands: readonly Command[] = [account, token, pay, incoming, clock, rec, trigger, wait, tail, report, reset]
