import { eq, inArray, sql } from 'drizzle-orm';
import type { IssueInput, VolumeInput } from '../../common/schemas.ts';
import type { SessionUser } from '../accounts/service.ts';
import { CATALOG_INDEX, issueTag, volumeTag } from '../cache/dependencies.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { conflict, invalid, notFound } from '../errors.ts';
import { type CatalogContext, catalogChanged } from './context.ts';
import { presentIssue, presentVolume } from './present.ts';
import { articles, issues, volumes } from './tables.ts';

/** The editors' changes to volumes and issues. */

export async function createVolume(ctx: CatalogContext, actor: SessionUser, input: VolumeInput) {
  try {
    const created = await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(volumes)
        .values({ title: input.title, volumeNumber: input.volume_number, year: input.year })
        .returning();
      await ctx.deps.audit.record(tx, actor, 'volume.create', { type: 'volume', id: row.id }, { ...input });
      await catalogChanged(ctx, tx, CATALOG_INDEX, volumeTag(row.id));
      return presentVolume(row);
    });
    return created;
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw conflict(`Volume ${input.volume_number} already exists.`, {
        volume_number: `Volume ${input.volume_number} already exists.`,
      });
    }
    throw err;
  }
}

/** Creates the next issue of a volume: issue numbers are given in order (1, 2, 3, …). */
export async function createIssue(ctx: CatalogContext, actor: SessionUser, input: IssueInput) {
  const [volume] = await ctx.db.select().from(volumes).where(eq(volumes.id, input.volume_id));
  if (!volume) throw invalid('That volume does not exist.', { volume_id: 'That volume does not exist.' });
  for (let attempt = 0; ; attempt++) {
    try {
      const created = await ctx.db.transaction(async (tx) => {
        const [{ next }] = await tx
          .select({ next: sql<number>`coalesce(max(${issues.issueNumber}), 0)::int + 1` })
          .from(issues)
          .where(eq(issues.volumeId, volume.id));
        const [row] = await tx
          .insert(issues)
          .values({
            volumeId: volume.id,
            issueNumber: next,
            title: input.title,
            description: input.description,
            publicationMonth: input.publication_month ?? null,
          })
          .returning();
        await ctx.deps.audit.record(tx, actor, 'issue.create', { type: 'issue', id: row.id }, { ...input });
        await catalogChanged(ctx, tx, CATALOG_INDEX, issueTag(row.id));
        return { ...presentIssue(row), volume_number: volume.volumeNumber };
      });
      return created;
    } catch (err) {
      // Two editors adding an issue at once: the unique (volume, number) pair sends one round again.
      if (isUniqueViolation(err) && attempt < 3) continue;
      throw err;
    }
  }
}

/** Changes a volume's title, number and year; 404 when it does not exist, 409 when the number is taken. */
export async function updateVolume(ctx: CatalogContext, actor: SessionUser, id: number, input: VolumeInput) {
  try {
    const updated = await ctx.db.transaction(async (tx) => {
      const [before] = await tx.select().from(volumes).where(eq(volumes.id, id));
      if (!before) throw notFound('No such volume.');
      const [row] = await tx
        .update(volumes)
        .set({ title: input.title, volumeNumber: input.volume_number, year: input.year })
        .where(eq(volumes.id, id))
        .returning();
      // Its articles' records change with it (set names, source, citations): harvesters must see them again.
      await tx
        .update(articles)
        .set({ updatedAt: new Date() })
        .where(
          inArray(articles.issueId, tx.select({ id: issues.id }).from(issues).where(eq(issues.volumeId, id))),
        );
      await ctx.deps.audit.record(
        tx,
        actor,
        'volume.update',
        { type: 'volume', id },
        {
          from: { title: before.title, volume_number: before.volumeNumber, year: before.year },
          to: { ...input },
        },
      );
      await catalogChanged(ctx, tx, CATALOG_INDEX, volumeTag(id));
      // Its issues' articles' deposits say its number and year (decision 0064).
      for (const issue of await tx.select({ id: issues.id }).from(issues).where(eq(issues.volumeId, id)))
        await ctx.deps.events?.emit(tx, 'issue.changed', { issueId: issue.id });
      return presentVolume(row);
    });
    return updated;
  } catch (err) {
    if (isUniqueViolation(err)) {
      throw conflict(`Volume ${input.volume_number} already exists.`, {
        volume_number: `Volume ${input.volume_number} already exists.`,
      });
    }
    throw err;
  }
}

/**
 * Changes an issue's title, description and month (its volume and number stay; a month left out stays as it
 * is, null clears it); 404 when it does not exist.
 */
export async function updateIssue(
  ctx: CatalogContext,
  actor: SessionUser,
  id: number,
  input: { title: string; description: string; publication_month?: number | null },
) {
  const updated = await ctx.db.transaction(async (tx) => {
    const [before] = await tx.select().from(issues).where(eq(issues.id, id));
    if (!before) throw notFound('No such issue.');
    const month = input.publication_month === undefined ? before.publicationMonth : input.publication_month;
    const [row] = await tx
      .update(issues)
      .set({ title: input.title, description: input.description, publicationMonth: month })
      .where(eq(issues.id, id))
      .returning();
    await tx.update(articles).set({ updatedAt: new Date() }).where(eq(articles.issueId, id));
    await ctx.deps.audit.record(
      tx,
      actor,
      'issue.update',
      { type: 'issue', id },
      {
        from: {
          title: before.title,
          description: before.description,
          publication_month: before.publicationMonth,
        },
        to: { title: input.title, description: input.description, publication_month: month },
      },
    );
    await catalogChanged(ctx, tx, CATALOG_INDEX, issueTag(id));
    await ctx.deps.events?.emit(tx, 'issue.changed', { issueId: id });
    return presentIssue(row);
  });
  return updated;
}
