// Dates are written on the server and again in the browser: a fixed locale and time zone keep both the same.
const DAY = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});
const DAY_TIME = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'UTC',
  timeZoneName: 'short',
});

/** "5 May 2026" (or "5 May 2026 at 14:03 UTC" with `time`) in a <time> element. */
export function DateText({ iso, time = false }: { iso: string; time?: boolean }) {
  const date = new Date(iso);
  return <time dateTime={iso}>{time ? DAY_TIME.format(date) : DAY.format(date)}</time>;
}
