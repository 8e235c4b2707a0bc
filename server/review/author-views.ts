import { and, asc, eq } from 'drizzle-orm';
import type { SessionUser } from '../accounts/service.ts';
import { articleTag, dependsOn } from '../cache/dependencies.ts';
import { articles } from '../catalog/tables.ts';
import { notFound } from '../errors.ts';
import { submissions } from '../submissions/tables.ts';
import { attachmentCopyForAuthor, attachmentForAuthor } from './author-attachment.ts';
import { assignmentFacts, extensionOf, type ReviewContext, reviewSettings, roundFacts } from './context.ts';
import { roundsOf } from './editor-view.ts';
import { authorView, publicReview } from './present.ts';
import { reviewAssignments, reviewerProfiles, reviewRounds } from './tables.ts';

/** What authors and the public see of peer review: the author's rounds and shared reviews, open reviews. */

/** The author's view of their submission's review (present.ts): progress and the reviews shared. */
export async function forAuthor(ctx: ReviewContext, user: SessionUser, submissionId: number) {
  const [s] = await ctx.db
    .select({ userId: submissions.userId })
    .from(submissions)
    .where(eq(submissions.id, submissionId));
  if (!s || s.userId !== user.id) throw notFound('Submission not found.');
  const settings = await reviewSettings(ctx);
  const { rounds, rows } = await roundsOf(ctx, submissionId);
  return {
    timeZone: settings.timeZone,
    rounds: authorView(
      await Promise.all(
        rounds.map(async (r) => ({
          round: await roundFacts(ctx, r),
          assignments: await Promise.all(
            rows
              .filter(({ a }) => a.roundId === r.id)
              .map(async ({ a, p }) =>
                assignmentFacts(
                  ctx,
                  // A file whose names cannot be removed is not the author's to download (the editor is told).
                  a.sharedAt && (await attachmentForAuthor(ctx, a, r.mode)) === 'withheld'
                    ? { ...a, attachmentFileId: null }
                    : a,
                  p,
                  settings.timeZone,
                ),
              ),
          ),
        })),
      ),
    ),
  };
}

/** A shared review's attached file, for the submission's author (named by its "Reviewer N" label). */
export async function authorAttachment(
  ctx: ReviewContext,
  user: SessionUser,
  submissionId: number,
  assignmentId: number,
) {
  const view = await forAuthor(ctx, user, submissionId);
  const shared = view.rounds
    .flatMap((r) => r.reviews.map((x) => ({ ...x, round: r.round })))
    .find((x) => x.assignmentId === assignmentId);
  if (!shared?.hasAttachment) throw notFound('File not found.');
  const [row] = await ctx.db
    .select({ a: reviewAssignments, mode: reviewRounds.mode })
    .from(reviewAssignments)
    .innerJoin(reviewRounds, eq(reviewRounds.id, reviewAssignments.roundId))
    .where(eq(reviewAssignments.id, assignmentId));
  const file = await attachmentCopyForAuthor(ctx, row.a, row.mode);
  const label = `round-${shared.round}-${shared.label.toLowerCase().replace(' ', '-')}`;
  return { name: `${label}${extensionOf(file.originalName)}`, file };
}

/** The agreed open reviews of a published article (404 when no article is published under this id). */
export async function articleReviews(ctx: ReviewContext, articleId: number) {
  const [article] = await ctx.db
    .select({ submissionId: articles.submissionId })
    .from(articles)
    .where(and(eq(articles.id, articleId), eq(articles.status, 'published')));
  if (!article) throw notFound('Article not found.');
  // A cached page showing them goes with the article's tag (dropped by the catalog when the article is
  // published, changed or withdrawn, and by this service when a review it shows changes).
  dependsOn(articleTag(articleId));
  return article.submissionId ? publishedReviews(ctx, article.submissionId) : [];
}

/** The open reviews whose reviewers agreed to publish them, for a published article's page. */
export async function publishedReviews(ctx: ReviewContext, submissionId: number) {
  const rows = await ctx.db
    .select({ a: reviewAssignments, p: reviewerProfiles, r: reviewRounds })
    .from(reviewAssignments)
    .innerJoin(reviewerProfiles, eq(reviewerProfiles.id, reviewAssignments.profileId))
    .innerJoin(reviewRounds, eq(reviewRounds.id, reviewAssignments.roundId))
    .innerJoin(submissions, eq(submissions.id, reviewAssignments.submissionId))
    .where(
      and(
        eq(reviewAssignments.submissionId, submissionId),
        eq(reviewAssignments.state, 'submitted'),
        eq(reviewAssignments.publishAgreed, true),
        eq(reviewRounds.mode, 'open'),
        eq(submissions.status, 'accepted'),
      ),
    )
    .orderBy(asc(reviewRounds.number), asc(reviewAssignments.id));
  return Promise.all(
    rows.map(async ({ a, p, r }) =>
      publicReview(assignmentFacts(ctx, a, p, 'UTC'), await roundFacts(ctx, r)),
    ),
  );
}
