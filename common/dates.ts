/** Date formatting shared by server and browser (no dependencies, so any page may import it). */

/** "15 July 2025" for "2025-07-15", the same on server and browser (the date is read as UTC). */
export function formatDeadline(isoDay: string): string {
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${isoDay}T00:00:00Z`),
  );
}

export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/**
 * "1 March 2025" for "2025-03-01", as `formatDeadline` writes it, without building an `Intl` formatter:
 * cheap enough for every row of a long list.
 */
export function formatDay(isoDay: string): string {
  const month = MONTHS[Number(isoDay.slice(5, 7)) - 1];
  const day = Number(isoDay.slice(8, 10));
  return month && day ? `${day} ${month} ${isoDay.slice(0, 4)}` : isoDay;
}
