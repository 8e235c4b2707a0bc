/**
 * What an editor is told once a new-issue alert is on its way: the same words from the API
 * (server/http/routes/subscriptions.ts) and the volumes page's action. Here, not in the service, so the page
 * module imports nothing with database tables in it.
 */
export function alertStartedMessage(label: string, recipients: number): string {
  return recipients === 0
    ? `The new-issue alert for ${label} is recorded; nobody has subscribed yet, so no e-mail went out.`
    : `The new-issue alert for ${label} is being sent to ${recipients} subscriber${recipients === 1 ? '' : 's'}.`;
}
