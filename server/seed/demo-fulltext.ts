/**
 * The demo articles' full texts (issue 16), made as an editor's would be: each article's Word file written
 * with the docx library and converted by the product. Not part of the start itself: writing and converting
 * five Word files took a third of a second of a first start's critical path (issue 13's 2 s to the first
 * page). The seed enqueues one job per demo article in the transaction that stores the article; any server
 * process runs it once the site listens, and a process stopped before it runs leaves it to the next
 * (decision 0022). A failure is logged and retried; the article keeps its PDF meanwhile.
 */
import { demoArticles } from '../../content/demo-articles.ts';
import type { FullTextService } from '../fulltext/service.ts';
import { MEDIA_TYPES } from '../files/content-type.ts';
import type { CheckedUpload } from '../files/uploads.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { Tx } from '../db/client.ts';

export const DEMO_FULLTEXT_JOB = 'seed.demo-fulltext';

interface DemoFullTextJob {
  articleId: number;
  /** The article's position in content/demo-articles.ts. */
  demo: number;
  doi: string;
}

export function defineDemoFullTextJob(jobs: JobQueue, fulltext: FullTextService): void {
  jobs.define<DemoFullTextJob>(
    DEMO_FULLTEXT_JOB,
    async ({ articleId, demo, doi }) => {
      const article = demoArticles[demo];
      // Made already (a retry after the commit), or the editors have given it one of their own.
      if (!article || (await fulltext.of({ articleId }))) return;
      // Loaded here, not with the server: the docx library is only needed the one time the demo is seeded.
      const { demoManuscript, writeManuscriptDocx } = await import('./word.ts');
      const word: CheckedUpload = {
        field: 'word',
        filename: `${doi.split('/')[1].replaceAll('.', '-')}.docx`,
        data: await writeManuscriptDocx(demoManuscript(article)),
        kind: 'docx',
        mediaType: MEDIA_TYPES.docx,
      };
      await fulltext.store(null, { articleId }, word, article);
    },
    { concurrency: 1 },
  );
}

/** Asks for a demo article's full text, in the transaction that stores the article. */
export async function enqueueDemoFullText(jobs: JobQueue, tx: Tx, job: DemoFullTextJob): Promise<void> {
  await jobs.enqueue(tx, DEMO_FULLTEXT_JOB, job, { key: `demo-fulltext:${job.doi.toLowerCase()}` });
}
