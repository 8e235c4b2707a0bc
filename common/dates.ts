/** Date formatting shared by server and browser (no dependencies, so any page may import it). */

/** "15 July 2025" for "2025-07-15", the same on server and browser (the date is read as UTC). */
export function formatDeadline(isoDay: string): string {
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${isoDay}T00:00:00Z`),
  );
}
