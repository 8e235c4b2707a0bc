import { z } from 'zod';

/** The journal's settings: seeded on first run, edited by the office without a deploy. */
export const journalSettingsSchema = z.object({
  name: z.string().min(1),
  abbreviation: z.string().min(1),
  description: z.string().min(1),
  issnOnline: z.string().regex(/^\d{4}-\d{3}[\dX]$/),
  publisher: z.string().min(1),
  publisherAddress: z.string().min(1),
  email: z.email(),
  phone: z.string().min(1),
  startYear: z.number().int(),
  frequency: z.string().min(1),
  issuesPerYear: z.number().int().positive(),
  language: z.string().min(2),
  license: z.object({ name: z.string(), url: z.url() }),
  areas: z.array(z.string()).min(1),
  doiPrefix: z.string().regex(/^10\.\d{4,9}$/),
  depositorName: z.string(),
  depositorEmail: z.email(),
  /**
   * `approved-accounts` keeps the spec's rule (sign in, and be approved, to download); `open` lets anyone
   * download published PDFs, which DOAJ requires.
   */
  downloads: z.enum(['approved-accounts', 'open']),
});
export type JournalSettings = z.infer<typeof journalSettingsSchema>;
