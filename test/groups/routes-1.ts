import t from 'tap'
import { runGroup } from '../loader/group.js'
import { commandBundle } from '../helpers/command-bundle.js'
import { JOURNALED } from '../reliability/journal-completeness/suites.js'

runGroup(t, 'routes', 1, 3, { prepare: commandBundle, skip: JOURNALED })
