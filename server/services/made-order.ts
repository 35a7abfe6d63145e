/**
 * Ids of records in the order they were made, in groups (a collection's records of one account, a
 * recurrence's confirmation requests): what a page of the control plane, or the records of one
 * owner, reads without going through every record of the collection. Its owner pushes what it adds
 * and lists the whole collection again after what is rare (a load, a rollback that took a record
 * away or put one back, an account removed).
 */
export class MadeOrder<G> {
  private readonly lists = new Map<G, string[]>()

  /** The group's ids, oldest first (empty for a group with none). */
  of (group: G): readonly string[] {
    return this.lists.get(group) ?? []
  }

  /** `id` is the newest of its group. */
  push (group: G, id: string): void {
    const list = this.lists.get(group)
    if (list === undefined) this.lists.set(group, [id])
    else list.push(id)
  }

  /** Whether the group lists `id` (searched from the newest, where what a rollback takes away was put). */
  includes (group: G, id: string): boolean {
    const list = this.lists.get(group)
    return list !== undefined && list.lastIndexOf(id) !== -1
  }

  clear (): void {
    this.lists.clear()
  }
}
