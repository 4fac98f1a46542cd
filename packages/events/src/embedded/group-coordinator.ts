/**
 * Consumer groups inside one process: assigns each partition of a topic to exactly one live member of the
 * group, and serializes work per (group, topic, partition) so that, across a rebalance, the new owner only
 * starts after the previous owner's batch and its commit are done.
 *
 * Groups are not coordinated across processes: two processes sharing the file may produce and consume
 * freely, but the same group should be consumed from one process at a time.
 */

export interface TopicPartition {
  readonly topic: string;
  readonly partition: number;
}

export interface GroupMember {
  readonly topics: readonly string[];
  /** The member's full assignment after a rebalance (it may have gained and lost partitions). */
  assign(partitions: readonly TopicPartition[]): void;
}

export class GroupCoordinator {
  private readonly members = new Map<string, GroupMember[]>();
  private readonly locks = new Map<string, Promise<void>>();
  private readonly generations = new Map<string, number>();

  constructor(private readonly partitionCount: (topic: string) => number) {}

  join(groupId: string, member: GroupMember): void {
    const members = this.members.get(groupId) ?? [];
    members.push(member);
    this.members.set(groupId, members);
    this.rebalance(groupId);
  }

  leave(groupId: string, member: GroupMember): void {
    const members = (this.members.get(groupId) ?? []).filter((m) => m !== member);
    if (members.length === 0) this.members.delete(groupId);
    else this.members.set(groupId, members);
    this.rebalance(groupId);
  }

  /** How many members the group has in this process. */
  memberCount(groupId: string): number {
    return this.members.get(groupId)?.length ?? 0;
  }

  /** Runs `work` with the partition to itself within the group; callers queue in arrival order. */
  async withPartition<T>(groupId: string, tp: TopicPartition, work: () => Promise<T>): Promise<T> {
    const key = slotKey(groupId, tp);
    const previous = this.locks.get(key) ?? Promise.resolve();
    let release!: () => void;
    const current = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => current);
    this.locks.set(key, tail);
    await previous;
    try {
      return await work();
    } finally {
      release();
      if (this.locks.get(key) === tail) this.locks.delete(key);
    }
  }

  /** Changes whenever the group's position on the partition is moved by a seek. */
  generation(groupId: string, tp: TopicPartition): number {
    return this.generations.get(slotKey(groupId, tp)) ?? 0;
  }

  bumpGeneration(groupId: string, tp: TopicPartition): void {
    const key = slotKey(groupId, tp);
    this.generations.set(key, (this.generations.get(key) ?? 0) + 1);
  }

  private rebalance(groupId: string): void {
    const members = this.members.get(groupId) ?? [];
    const assignments = new Map<GroupMember, TopicPartition[]>(members.map((m) => [m, []]));
    const topics = [...new Set(members.flatMap((m) => m.topics))].sort();
    for (const topic of topics) {
      // Round-robin over the members subscribed to the topic, in join order: stable and even.
      const subscribed = members.filter((m) => m.topics.includes(topic));
      const count = this.partitionCount(topic);
      for (let partition = 0; partition < count; partition++) {
        const owner = subscribed[partition % subscribed.length];
        if (owner) assignments.get(owner)?.push({ topic, partition });
      }
    }
    for (const [member, partitions] of assignments) member.assign(partitions);
  }
}

function slotKey(groupId: string, tp: TopicPartition): string {
  return `${groupId}\u0000${tp.topic}\u0000${tp.partition}`;
}
