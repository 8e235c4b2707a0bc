import { type RouteConfig, index, route } from '@react-router/dev/routes';

export default [
  index('routes/home.tsx'),
  // The spec sends people to /home after a session expires; it is the home page under a second address.
  route('home', 'routes/home.tsx', { id: 'home-alias' }),
  route('login', 'routes/login.tsx'),
  route('regist', 'routes/regist.tsx'),
  route('logout', 'routes/logout.tsx'),
  // The account holder's own: forgotten password, the account page, the new address's confirmation (issue 12).
  route('forgot-password', 'routes/forgot-password.tsx'),
  route('reset-password', 'routes/reset-password.tsx'),
  route('account', 'routes/account.tsx'),
  route('account/email/confirm', 'routes/account.email.confirm.tsx'),
  // The journal's pages (content: Markdown and data in the settings table, see common/content.ts).
  route('about', 'routes/about.tsx'),
  route('overview', 'routes/overview.tsx'),
  route('indexing', 'routes/indexing.tsx'),
  route('editorial-board', 'routes/editorial-board.tsx'),
  route('instructions', 'routes/instructions.tsx'),
  route('apc', 'routes/apc.tsx'),
  route('ethics', 'routes/ethics.tsx'),
  route('copyright', 'routes/copyright.tsx'),
  route('copyright-form.pdf', 'routes/copyright-form.ts'),
  route('templates/:file', 'routes/author-template.ts'),
  route('open-special-issues', 'routes/open-special-issues.tsx'),
  route('closed-special-issues', 'routes/closed-special-issues.tsx'),
  route('special-issues', 'routes/special-issues.tsx'),
  // Reading: volumes and issues (decision 0006), articles, downloads, alerts, contact.
  route('volumes', 'routes/volumes.tsx'),
  route('article/:id', 'routes/article.tsx'),
  route('articles/:id', 'routes/articles-redirect.tsx'),
  route('download/:id', 'routes/download.tsx'),
  route('subscription', 'routes/subscription.tsx'),
  route('unsubscribe', 'routes/unsubscribe.tsx'),
  route('contact', 'routes/contact.tsx'),
  route('search', 'routes/search.tsx'),
  // The similarity and grammar checker (issue 5).
  route('plagiarism', 'routes/plagiarism.tsx'),
  // Authors' workspace: submitting a manuscript and following it (issue 4).
  route('submission', 'routes/submission.tsx'),
  route('my-submissions', 'routes/my-submissions.tsx'),
  route('my-submissions/:id', 'routes/my-submissions.$id.tsx'),
  // Peer review, the reviewer's pages (issue 14): my assignments, one assignment (also by the invitation
  // link), and its downloads (beside the page, where the link's cookie reaches).
  route('reviews', 'routes/reviews.tsx'),
  // The reviewer's profile (interests, ORCID iD, unavailable until): beside their reviews; a static segment,
  // so it is never taken for an assignment's id.
  route('reviews/profile', 'routes/reviews.profile.tsx'),
  route('reviews/:id', 'routes/reviews.$id.tsx'),
  route('reviews/:id/files/:fileId', 'routes/reviews.$id.files.ts', { id: 'review-file' }),
  route('reviews/:id/attachment', 'routes/reviews.$id.files.ts', { id: 'review-attachment' }),
  // The editorial dashboard (issue 4): one guarded layout, one child route per section.
  route('editor-dashboard', 'routes/editor-dashboard.tsx', [
    // The front door sends editors to the submissions desk; pending users are a section of their own.
    index('routes/editor-dashboard._index.tsx'),
    route('pending-users', 'routes/editor-dashboard.pending-users.tsx'),
    route('submissions', 'routes/editor-dashboard.submissions.tsx'),
    route('submissions/:id', 'routes/editor-dashboard.submissions.$id.tsx'),
    // Publishing an accepted submission: its files, the preview as readers will see it, Publish (issue 22).
    route('submissions/:id/publish', 'routes/editor-dashboard.submissions.$id.publish.tsx'),
    route('volumes', 'routes/editor-dashboard.volumes.tsx'),
    route('articles', 'routes/editor-dashboard.articles.tsx'),
    route('dois', 'routes/editor-dashboard.dois.tsx'),
    route('messages', 'routes/editor-dashboard.messages.tsx'),
    route('apc', 'routes/editor-dashboard.apc.tsx'),
    route('audit', 'routes/editor-dashboard.audit.tsx'),
    route('submissions/:id/similarity', 'routes/editor-dashboard.submissions.$id.similarity.tsx'),
    route('users', 'routes/editor-dashboard.users.tsx'),
    route('settings', 'routes/editor-dashboard.settings.tsx'),
    // Peer review: the journal's review form (issue 14, the reviewer pages' helper).
    route('review-form', 'routes/editor-dashboard.review-form.tsx'),
    route('content', 'routes/editor-dashboard.content.tsx'),
    route('content/editorial-board', 'routes/editor-dashboard.content.board.tsx'),
    route('content/special-issues', 'routes/editor-dashboard.content.special-issues.tsx'),
    route('content/:slug', 'routes/editor-dashboard.content.$slug.tsx'),
    // Peer review, the reviewer pool (issue 14, the author/pool pages helper).
    route('reviewers', 'routes/editor-dashboard.reviewers.tsx'),
    // Preservation: LOCKSS/CLOCKSS switches, each issue's archive package (issue 25, decision 0065).
    route('archive', 'routes/editor-dashboard.archive.tsx'),
  ]),
  // The site admin's journals (issue 24, decision 0055): made, closed, archived, moved.
  route('admin/journals', 'routes/admin.journals.tsx'),
  // The site admin's OJS imports (issue 26, decision 0069): upload, a run's progress and its report.
  route('admin/imports', 'routes/admin.imports.tsx'),
  route('admin/imports/:id', 'routes/admin.imports.$id.tsx'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
