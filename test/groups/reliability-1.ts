import t from 'tap'
import { runGroup } from '../loader/group.js'
import { commandBundle } from '../helpers/command-bundle.js'

runGroup(t, 'reliability', 1, 3, { jobs: 2, subfolders: false, prepare: commandBundle })
