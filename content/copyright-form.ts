import type { JournalSettings } from '../common/journal.ts';

/**
 * The words of the copyright transfer form that authors download from /copyright, complete and send with
 * their submission. The authors keep their copyright (the articles say "© The Authors"): what they
 * transfer is the right of first publication, and the article is then published under CC BY 4.0.
 */
export function copyrightFormText(journal: JournalSettings) {
  return {
    title: 'Copyright Transfer Form',
    subtitle: 'Copyright and licence agreement for open-access publication',
    intro: `Please complete this form, sign it on behalf of all authors and send it to ${journal.email} with your submission, or attach it to the submission on the journal's website. A manuscript can be published only when the form has been received.`,
    fields: [
      'Manuscript title',
      'Manuscript number (if assigned)',
      'All authors, in the order of the manuscript',
      'Corresponding author',
      'E-mail and telephone',
    ],
    terms: [
      `The author(s) confirm that the manuscript is their original work, has not been published before and is not under consideration by another journal, and that the corresponding author may sign this agreement on behalf of all co-authors.`,
      `The author(s) retain the copyright in the article. On acceptance, they transfer to ${journal.publisher} (the publisher) the exclusive right of first publication and grant it a non-exclusive, worldwide licence to publish, reproduce, distribute, archive and index the article in all forms and media.`,
      `The article will be published open access in the ${journal.name} under the ${journal.license.name} licence (${journal.license.url}), with no embargo: anyone may share and adapt it for any purpose, provided the authors and the original publication are credited.`,
      "The author(s) confirm that the article infringes no one's rights, that permission has been obtained for any material reproduced from other sources, that ethical approval and informed consent were obtained where the research required them, and that all conflicts of interest and sources of funding are declared in the manuscript.",
      'The author(s) may deposit any version of the article in institutional or subject repositories and on personal web pages, with a link to the published version and its DOI.',
      'If the manuscript is rejected or withdrawn before publication, this agreement is void and all rights remain with the author(s).',
    ],
    signature: 'Signed by the corresponding author, for and on behalf of all authors:',
    signatureFields: ['Name', 'Signature', 'Date'],
    officeUse: 'For the editorial office',
    officeFields: ['Received on', 'Manuscript number', 'Checked by'],
  };
}
