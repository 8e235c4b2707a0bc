import type { JournalSettings } from '../../common/journal.ts';
import { conflict, notFound } from '../errors.ts';
import { crossrefDeposit } from './crossref.ts';
import { doajRecords } from './doaj.ts';
import type { Work, WorkReader } from './works.ts';

/** A file for an indexer, ready to download: its XML, its name, and the articles left out of it. */
export interface DepositFile {
  xml: string;
  filename: string;
  /** Ids of the articles it could not take (no DOI, no PDF); the route lists them in `X-Skipped-Articles`. */
  skipped: number[];
}

/** What one kind of file keeps and how it is written. */
interface DepositFormat {
  format: 'crossref' | 'doaj';
  /** Whether the indexer can take this article; the others are skipped. */
  keeps: (work: Work) => boolean;
  /** The refusal when it can take none of them. */
  nothing: string;
  write: (journal: JournalSettings, works: Work[], place: string, now: Date) => string;
}

/** Crossref deposits need a DOI per article; the batch id names the place and the moment. */
const CROSSREF: DepositFormat = {
  format: 'crossref',
  keeps: (w) => Boolean(w.doi),
  nothing: 'This issue has no published article with a DOI: there is nothing to deposit.',
  write: (journal, works, place, now) =>
    crossrefDeposit(journal, { volume: works[0].volume, issue: works[0].issue }, works, {
      batchId: batchId(journal, place, now),
      now,
    }),
};

/** DOAJ records point at the PDF as the full text. */
const DOAJ: DepositFormat = {
  format: 'doaj',
  keeps: (w) => Boolean(w.pdfUrl),
  nothing: 'This issue has no published article with a PDF: there is nothing to upload.',
  write: (journal, works) => doajRecords(journal, works),
};

function batchId(journal: JournalSettings, place: string, now: Date) {
  return `${journal.abbreviation.toLowerCase()}-${place}-${now.getTime()}`;
}

/** `cjei-crossref-v1i2.xml`: the journal, the format and the place. */
function exportName(abbreviation: string, format: DepositFormat['format'], place: string) {
  const journal =
    abbreviation
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'journal';
  return `${journal}-${format}-${place}.xml`;
}

/**
 * The dashboard's downloads for Crossref (DOI deposit) and DOAJ (article upload), each the same shape: find
 * what the file covers, keep what the indexer can take (refusing when that is nothing), write it. The API
 * routes only send the file.
 */
export class DepositExports {
  constructor(
    private readonly works: WorkReader,
    private readonly settings: { journal(): Promise<JournalSettings> },
  ) {}

  crossrefIssue(issueId: number): Promise<DepositFile> {
    return this.issueFile(issueId, CROSSREF);
  }

  doajIssue(issueId: number): Promise<DepositFile> {
    return this.issueFile(issueId, DOAJ);
  }

  async crossrefArticle(articleId: number): Promise<DepositFile> {
    const work = await this.works.work(articleId);
    if (!work) throw notFound('Article not found.');
    if (work.status !== 'published') throw conflict('This article is not published: it cannot be deposited.');
    if (!work.doi) throw conflict('This article has no DOI: give it one before depositing it.');
    return this.file(CROSSREF, [work], `article-${work.id}`, []);
  }

  private async issueFile(issueId: number, how: DepositFormat): Promise<DepositFile> {
    const found = await this.works.issue({ id: issueId });
    if (!found) throw notFound('Issue not found.');
    const { issue, volume } = found;
    const all = await this.works.issueWorks(issue.id);
    const kept = all.filter(how.keeps);
    if (!kept.length) throw conflict(how.nothing);
    const skipped = all.filter((w) => !how.keeps(w)).map((w) => w.id);
    return this.file(how, kept, `v${volume.volumeNumber}i${issue.issueNumber}`, skipped);
  }

  private async file(
    how: DepositFormat,
    works: Work[],
    place: string,
    skipped: number[],
  ): Promise<DepositFile> {
    const journal = await this.settings.journal();
    return {
      xml: how.write(journal, works, place, new Date()),
      filename: exportName(journal.abbreviation, how.format, place),
      skipped,
    };
  }
}
