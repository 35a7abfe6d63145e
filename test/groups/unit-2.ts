import t from 'tap'
import { runGroup } from '../loader/group.js'

runGroup(t, 'unit', 2, 2)
