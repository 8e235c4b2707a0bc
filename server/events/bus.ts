import type { Tx } from '../db/client.ts';
import type { JobQueue } from '../jobs/queue.ts';

/**
 * What a committed change says happened, with what its followers need to find it (decision 0031). An event
 * names a fact about the data, not the work to do about it: the followers decide that.
 */
export interface Events {
  /** An article's metadata, PDF or published state changed, or it was published (new). */
  'article.changed': { articleId: number };
  /** A submission's manuscript versions changed: it arrived, or a revision came in. */
  'manuscript.arrived': { submissionId: number };
  /**
   * An issue's own facts changed (its title, description, month, or its volume's number or year): what its
   * articles' records say (DOI deposits, decision 0064) and its archive package holds (decision 0065).
   */
  'issue.changed': { issueId: number };
  /** A published article's full text changed: replaced, its alt texts or its references' DOIs edited. */
  'fulltext.changed': { articleId: number };
}
export type EventName = keyof Events;

interface Subscription {
  job: string;
  payload: (event: never) => unknown;
}

/**
 * The outbox (decision 0031): `emit(tx, event, payload)` inside the change's transaction writes one job per
 * follower of that event on the durable queue (decision 0022), so a follower's work exists exactly when the
 * change committed, and runs once, in whichever process claims it (retried, taken over after a lease). The
 * followers are registered in one place (server/events/followers.ts): a new follower is one `follow`.
 */
export class EventBus {
  private readonly subscriptions = new Map<EventName, Subscription[]>();

  constructor(private readonly jobs: Pick<JobQueue, 'enqueue'>) {}

  /**
   * Every `event` from now on becomes a `job` (defined by the follower on the queue, with its own retries and
   * concurrency), its payload made from the event's.
   */
  follow<E extends EventName>(event: E, job: string, payload: (event: Events[E]) => unknown = (e) => e): void {
    const list = this.subscriptions.get(event) ?? [];
    list.push({ job, payload: payload as (event: never) => unknown });
    this.subscriptions.set(event, list);
  }

  /** Who follows `event` (the names of their jobs). */
  followers(event: EventName): string[] {
    return (this.subscriptions.get(event) ?? []).map((s) => s.job);
  }

  /** Inside the change's transaction: the followers' jobs commit (or roll back) with it. */
  async emit<E extends EventName>(tx: Tx, event: E, payload: Events[E]): Promise<void> {
    for (const s of this.subscriptions.get(event) ?? []) {
      await this.jobs.enqueue(tx, s.job, s.payload(payload as never));
    }
  }
}
