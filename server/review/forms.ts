import { desc, eq } from 'drizzle-orm';
import type { ReviewFormInput } from '../../common/review.ts';
import type { Actor } from '../audit/service.ts';
import { conflict, notFound } from '../errors.ts';
import type { ReviewContext } from './context.ts';
import { reviewForms, reviewRounds } from './tables.ts';

/** Review forms: the questions a round's reviewers answer, versioned once a round has used them. */

function presentForm(f: typeof reviewForms.$inferSelect) {
  return {
    id: f.id,
    name: f.name,
    questions: f.questions,
    previousId: f.previousId,
    createdAt: f.createdAt.toISOString(),
  };
}

export async function forms(ctx: ReviewContext) {
  const rows = await ctx.db
    .select()
    .from(reviewForms)
    .where(eq(reviewForms.retired, false))
    .orderBy(desc(reviewForms.id));
  return rows.map(presentForm);
}

export async function createForm(ctx: ReviewContext, actor: Actor, input: ReviewFormInput) {
  const [row] = await ctx.db.transaction(async (tx) => {
    const created = await tx
      .insert(reviewForms)
      .values({ name: input.name, questions: input.questions, createdAt: ctx.clock.date() })
      .returning();
    await ctx.audit.record(tx, actor, 'review.form.create', { type: 'review_form', id: created[0].id }, {});
    return created;
  });
  return presentForm(row);
}

/**
 * Edits a form. A form no round has used yet changes in place; one a round uses keeps its questions for
 * that round: the edit becomes a new version (the old one is retired, new rounds take the new one).
 */
export async function updateForm(ctx: ReviewContext, actor: Actor, id: number, input: ReviewFormInput) {
  const row = await ctx.db.transaction(async (tx) => {
    const [form] = await tx.select().from(reviewForms).where(eq(reviewForms.id, id)).for('update');
    if (!form) throw notFound('Review form not found.');
    if (form.retired) throw conflict('This version of the form has been replaced: edit its newest version.');
    const [used] = await tx
      .select({ id: reviewRounds.id })
      .from(reviewRounds)
      .where(eq(reviewRounds.formId, id))
      .limit(1);
    let result: typeof reviewForms.$inferSelect;
    if (used) {
      await tx.update(reviewForms).set({ retired: true }).where(eq(reviewForms.id, id));
      [result] = await tx
        .insert(reviewForms)
        .values({
          name: input.name,
          questions: input.questions,
          previousId: id,
          createdAt: ctx.clock.date(),
        })
        .returning();
    } else {
      [result] = await tx
        .update(reviewForms)
        .set({ name: input.name, questions: input.questions })
        .where(eq(reviewForms.id, id))
        .returning();
    }
    await ctx.audit.record(
      tx,
      actor,
      'review.form.update',
      { type: 'review_form', id: result.id },
      { newVersion: Boolean(used) },
    );
    return result;
  });
  return presentForm(row);
}
