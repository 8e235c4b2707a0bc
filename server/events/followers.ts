import { CHANGED_JOB as PRESERVATION_JOB } from '../preservation/service.ts';
import { DOI_CHANGED_JOB, DOI_ISSUE_CHANGED_JOB, type DoiService } from '../doi/service.ts';
import type { SimilarityService } from '../similarity/service.ts';
import { SIMILARITY_JOB } from '../similarity/service.ts';
import type { EventBus } from './bus.ts';

/**
 * Who follows which event (decision 0031), in one place: each line is one subscription, delivered as a job
 * on the queue written in the change's transaction. What every process keeps in memory follows changes by
 * another way, to every process at once (server/cache/changes.ts); the search text is derived in the same
 * transaction by triggers (server/db/migrations/0004_search.sql).
 */
export function followEvents(events: EventBus, s: { similarity: SimilarityService; doi?: DoiService }): void {
  // A published article's DOI is deposited with Crossref (and DOAJ), and again when what it says changes
  // (decision 0064): the follower compares what was sent with what the article now says.
  if (s.doi) {
    events.follow('article.changed', DOI_CHANGED_JOB, ({ articleId }) => ({ articleId }));
    // An issue's or volume's change is its articles' (their volume, year, date): each is looked at again.
    events.follow('issue.changed', DOI_ISSUE_CHANGED_JOB, ({ issueId }) => ({ issueId }));
  }
  // The similarity corpus reads an article's PDF again (the search text follows it by its triggers), and
  // indexes then checks each arriving manuscript version: one job at a time per process (its handler's).
  if (s.similarity.background) {
    events.follow('article.changed', SIMILARITY_JOB, ({ articleId }) => ({ type: 'article', articleId }));
    events.follow('manuscript.arrived', SIMILARITY_JOB, ({ submissionId }) => ({
      type: 'submission',
      submissionId,
    }));
  }
  // Each issue's archive package is made again after a change to it or to one of its articles (decision 0065).
  events.follow('article.changed', PRESERVATION_JOB, ({ articleId }) => ({ articleId }));
  events.follow('issue.changed', PRESERVATION_JOB, ({ issueId }) => ({ issueId }));
  events.follow('fulltext.changed', PRESERVATION_JOB, ({ articleId }) => ({ articleId }));
}
