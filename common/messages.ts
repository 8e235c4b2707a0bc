/** The spec's own wording (sections 4, 5, 6 and 8), in one place for the pages and the API. */
export const MESSAGES = {
  invalidLogin: 'Invalid username or password.',
  /** An account moved in from another system whose old password could not come with it (issue 26). */
  passwordToSet:
    'This account was moved here from the journal’s previous system and needs a new password: use “Forgot your password?” to set one.',
  registrationNotice:
    'Registration successful. Authors can upload manuscripts right away, but access to published articles requires approval by the editorial board. You will be notified once your account is approved.',
  registrationFailed: 'Registration failed. Please try again.',
  contactSuccess: 'Thank you for reaching out. We will get back to you soon.',
  contactFailure: "Sorry, your message couldn't be sent. Please try again later.",
  submissionSuccess: 'Submission successful. Await review by the editorial board.',
  submissionFailedPrefix: 'Submission failed: ',
  copyrightFormMissing:
    'Please attach the signed copyright form (PDF): this journal needs it with every submission.',
  journalClosed:
    'This journal is closed to new submissions: it no longer takes manuscripts. Its published articles stay open to read.',
  mainFileMissing: 'Please upload at least the main submission file (Word/PDF).',
  mustBeAuthor: 'You must be logged in as an Author to submit an article.',
  downloadNeedsApproval:
    'You need to Register and get approved by the editorial board to access the article even though it is open access.',
  downloadFailedPrefix: 'Download failed: ',
  accessDenied: 'Access denied.',
  plagiarismNoFile: 'Please upload a file.',
  plagiarismFailure: 'An error occurred while checking plagiarism. Please try again.',
  citationCopied: 'Citation copied to clipboard.',
  citationCopyFailedPrefix: 'Failed to copy citation: ',
  emptyIssue: 'Articles are under review.',
  loadingArticle: 'Loading article...',
  preparingDownload: 'Preparing your download...',
  unauthorizedAccess: 'Unauthorized Access',
  notFound: "The page you're looking for doesn't exist.",
  signInRequired: 'Please log in to continue.',
  tooManyRequests: 'Too many attempts. Please wait a few minutes and try again.',
} as const;
