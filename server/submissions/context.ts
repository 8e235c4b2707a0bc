import type { AuditService } from '../audit/service.ts';
import type { Db } from '../db/client.ts';
import type { EventBus } from '../events/bus.ts';
import type { FileService } from '../files/service.ts';
import type { OfficeAddress } from '../mail/office.ts';
import type { MailService } from '../mail/service.ts';
import type { ApcHooks, ReviewHooks } from './service.ts';

/** What the submissions' use cases (submit.ts, read.ts, decide.ts, revise.ts, publish.ts) share. */
export interface SubmissionsDeps {
  files: FileService;
  audit: AuditService;
  mail: MailService;
  /** Where the journal's office notices go (decision 0060). */
  officeEmail: OfficeAddress;
  journalName: () => Promise<string>;
  /** The journal's setting: a submission must include the signed copyright form (issue 22). */
  copyrightFormRequired?: () => Promise<boolean>;
  /** Whether the journal at hand takes new manuscripts (not when closed or archived: decision 0055). */
  acceptsSubmissions?: () => boolean;
  /** The journal's address (decision 0053). */
  publicUrl: () => string;
  /** The outbox: `manuscript.arrived` in the transaction that stores versions (decision 0031). */
  events?: Pick<EventBus, 'emit'>;
}

export interface SubmissionsContext {
  readonly db: Db;
  readonly deps: SubmissionsDeps;
  /** Peer review's hooks (set once by server/services.ts, after both services exist). */
  readonly reviewHooks?: ReviewHooks;
  /** The article processing charge's hooks (set once by server/services.ts: decision 0063). */
  readonly apcHooks?: ApcHooks;
}
