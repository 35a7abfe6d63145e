import t from 'tap'
import { runGroup } from '../loader/group.js'

runGroup(t, 'browser', 1, 1, { jobs: 3 })
