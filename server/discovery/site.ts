import type { JournalSettings } from '../../common/journal.ts';

/**
 * The site as a whole, as its own discovery documents name it (decision 0057). The site has no settings of
 * its own yet: it is named after the publisher of its first journal, the one every installation has.
 */
export function siteName(first: Pick<JournalSettings, 'publisher'>): string {
  return `${first.publisher}: journals`;
}
