import type { JournalSettings } from '../common/journal.ts';
import { APC_DEFAULTS } from '../common/apc.ts';
import { REVIEW_SETTINGS_DEFAULTS } from '../common/review.ts';

/**
 * The journal's settings as first seeded. After the first run they live in the database (settings key
 * `journal`) and the editorial office edits them there: changing this file later changes nothing for a
 * journal that already runs. The publisher, its address, phone and ISSN are fictional demo values.
 */
export function journalDefaults(contact: { email: string }): JournalSettings {
  return {
    name: 'Colophon Journal of Engineering and Informatics',
    abbreviation: 'CJEI',
    description:
      'The Colophon Journal of Engineering and Informatics is an open-access, peer-reviewed quarterly for original research, reviews and data papers across engineering and computing, from machine learning, cloud systems and the Internet of Things to renewable energy, robotics and software verification. Every article is free to read, download and reuse under the Creative Commons Attribution 4.0 licence from the day it is published, with no embargo. We aim for careful, constructive review by specialists and clear, fast editorial decisions.',
    // 3049-417 with its check digit: 3·8 + 0·7 + 4·6 + 9·5 + 4·4 + 1·3 + 7·2 = 126; 126 mod 11 = 5; 11 − 5 = 6.
    issnOnline: '3049-4176',
    publisher: 'Tamarind Grove Academic Publishing Pvt. Ltd.',
    publisherAddress:
      'Tamarind Grove Academic Publishing Pvt. Ltd., 27 Sathy Road, Ganapathy, Coimbatore 641006, Tamil Nadu, India',
    email: contact.email,
    phone: '+91 422 254 3187',
    startYear: 2025,
    frequency: 'Quarterly',
    issuesPerYear: 4,
    language: 'en',
    license: { name: 'CC BY 4.0', url: 'https://creativecommons.org/licenses/by/4.0/' },
    areas: [
      'AI and machine learning',
      'Big data and cloud computing',
      'Internet of Things (IoT)',
      'Cybersecurity and blockchain',
      'Renewable engineering',
      'Robotics and automation',
      'Software engineering',
      'Testing and verification',
      'Visualization and multimedia',
    ],
    // Crossref's prefix for testing: DOIs under it never resolve to real works.
    doiPrefix: '10.5555',
    depositorName: 'Tamarind Grove Academic Publishing, Editorial Office',
    depositorEmail: contact.email,
    downloads: 'approved-accounts',
    copyrightFormRequired: false,
    pendingAccountsDigest: true,
    review: REVIEW_SETTINGS_DEFAULTS,
    apc: APC_DEFAULTS,
  };
}

/**
 * A new journal of the site, as the site admin makes it (decision 0062). What is the publisher's is taken
 * from the site's first journal (its name, address, phone, Crossref prefix and depositor, licence, language
 * and download rule, review's time zone); what is the journal's own starts blank or plain: its title, the
 * title as its abbreviation, no ISSN until one is assigned, no areas, a one-line description, this year as
 * its first. Its editors set the rest in Journal settings.
 */
export function newJournalSettings(opts: {
  title: string;
  publisherOf: JournalSettings;
  email: string;
  year: number;
}): JournalSettings {
  const p = opts.publisherOf;
  return {
    ...journalDefaults({ email: opts.email }),
    name: opts.title,
    abbreviation: opts.title,
    description: `${opts.title} is a peer-reviewed, open-access journal published by ${p.publisher}.`,
    issnOnline: '',
    publisher: p.publisher,
    publisherAddress: p.publisherAddress,
    phone: p.phone,
    startYear: opts.year,
    language: p.language,
    license: p.license,
    areas: [],
    doiPrefix: p.doiPrefix,
    depositorName: p.depositorName,
    depositorEmail: p.depositorEmail,
    downloads: p.downloads,
    review: { ...REVIEW_SETTINGS_DEFAULTS, timeZone: p.review.timeZone },
    // The publisher's rule and payment details, as the site's first journal has them (decision 0063).
    apc: p.apc,
  };
}
