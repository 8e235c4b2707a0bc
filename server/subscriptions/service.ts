import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { subscriptions } from './tables.ts';

export class SubscriptionsService {
  constructor(private readonly db: Db) {}

  async isSubscribed(userId: number): Promise<boolean> {
    const [row] = await this.db.select().from(subscriptions).where(eq(subscriptions.userId, userId));
    return Boolean(row);
  }

  async subscribe(userId: number): Promise<void> {
    await this.db.insert(subscriptions).values({ userId }).onConflictDoNothing();
  }

  async unsubscribe(userId: number): Promise<void> {
    await this.db.delete(subscriptions).where(eq(subscriptions.userId, userId));
  }
}
