import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AssignmentState, AssignmentStatus } from '../../common/review.ts';

/**
 * Peer review's rules that need no database: due days in the journal's time zone, the assignment state
 * machine, conflicts of interest and the invitation link's token (decision 0023).
 */

const DAY_MS = 86_400_000;

/** `2026-03-29` + n days, by the calendar (no time zone involved). */
export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The wall-clock reading in `zone` at `instant`, as if it were UTC (ms). */
function wallClock(instant: number, zone: string): number {
  const parts = Object.fromEntries(
    formatter(zone)
      .formatToParts(new Date(instant))
      .map((p) => [p.type, p.value]),
  );
  return Date.UTC(+parts.year, +parts.month - 1, +parts.day, +parts.hour, +parts.minute, +parts.second);
}

/** The calendar day in `zone` at `instant`. */
export function dayIn(instant: number, zone: string): string {
  return new Date(wallClock(instant, zone)).toISOString().slice(0, 10);
}

/**
 * The first instant of `day` in `zone` (its local midnight; when a DST jump skips midnight, the first time
 * that exists that day).
 */
export function startOfDay(day: string, zone: string): Date {
  const [y, m, d] = day.split('-').map(Number);
  const wall = Date.UTC(y, m - 1, d);
  // Guess with the offset at that wall time read as UTC, then correct once with the offset found there.
  let t = wall - (wallClock(wall, zone) - wall);
  t = wall - (wallClock(t, zone) - t);
  // Midnight did not exist (clocks jumped forward at 00:00): the day starts at the jump.
  if (dayIn(t, zone) !== day) {
    for (let h = 1; h <= 3; h++) {
      const later = t + h * 3_600_000;
      if (dayIn(later, zone) === day) return new Date(later - (wallClock(later, zone) % 3_600_000));
    }
  }
  return new Date(t);
}

/**
 * A due day's deadline: the end of that day in the journal's time zone, i.e. the moment the next day begins
 * there. Work is overdue from this instant on.
 */
export function dueInstant(day: string, zone: string): Date {
  return startOfDay(addDays(day, 1), zone);
}

/**
 * When a reminder `offset` days from a due day fires: `offset` days (by the calendar, DST-correct) from
 * the deadline; -2 = two days before the end of the due day, 1 = one day after it.
 */
export function reminderInstant(day: string, offset: number, zone: string): Date {
  return startOfDay(addDays(day, 1 + offset), zone);
}

/** The default due day: `days` calendar days after today in the journal's zone. */
export function defaultDueDay(now: number, days: number, zone: string): string {
  return addDays(dayIn(now, zone), days);
}

// ---- The assignment's state machine -------------------------------------------------------------------

export type AssignmentAction = 'accept' | 'decline' | 'submit' | 'cancel' | 'reinstate';

const MOVES: Record<AssignmentAction, readonly AssignmentState[]> = {
  accept: ['invited'],
  decline: ['invited'],
  submit: ['accepted'],
  cancel: ['invited', 'accepted'],
  reinstate: ['cancelled'],
};

/** The state after `action`, or null when the action is not possible from `state`. */
export function nextState(
  state: AssignmentState,
  action: AssignmentAction,
  cancelledFrom: AssignmentState | null = null,
): AssignmentState | null {
  if (!MOVES[action].includes(state)) return null;
  switch (action) {
    case 'accept':
      return 'accepted';
    case 'decline':
      return 'declined';
    case 'submit':
      return 'submitted';
    case 'cancel':
      return 'cancelled';
    case 'reinstate':
      return cancelledFrom === 'accepted' ? 'accepted' : 'invited';
  }
}

export const REFUSED_MOVE: Record<AssignmentAction, string> = {
  accept: 'This invitation can no longer be accepted: it was answered, cancelled or closed.',
  decline: 'This invitation can no longer be declined: it was answered, cancelled or closed.',
  submit: 'A review can be submitted only once, after accepting the invitation.',
  cancel: 'Only an invitation waiting for an answer or an accepted assignment can be cancelled.',
  reinstate: 'Only a cancelled assignment can be reinstated.',
};

/** The status shown: the stored state, or overdue when its due date has passed (derived, never stored). */
export function assignmentStatus(
  a: { state: AssignmentState; responseDue: string; reviewDue: string },
  now: number,
  zone: string,
): AssignmentStatus {
  if (a.state === 'invited' && now >= dueInstant(a.responseDue, zone).getTime()) return 'response-overdue';
  if (a.state === 'accepted' && now >= dueInstant(a.reviewDue, zone).getTime()) return 'review-overdue';
  return a.state;
}

/** Assignments that still hold the reviewer's link and the round's attention. */
export const OPEN_STATES: readonly AssignmentState[] = ['invited', 'accepted'];

// ---- Conflicts ----------------------------------------------------------------------------------------

export interface Party {
  name?: string;
  email: string;
  affiliation: string;
}

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
/** "Univ. of Chennai" and "univ of  chennai" are one institution; an empty one matches nothing. */
export function sameInstitution(a: string, b: string): boolean {
  const norm = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim();
  return norm(a) !== '' && norm(a) === norm(b);
}

/**
 * An author of the submission (any author's e-mail, or the submitter) cannot review it: `refusal` says why.
 * A reviewer of an author's institution is allowed with a `warning`.
 */
export function conflicts(
  reviewer: Party,
  authors: readonly Party[],
  submitter: Party,
): { refusal?: string; warning?: string } {
  if (sameEmail(reviewer.email, submitter.email)) {
    return { refusal: 'This person submitted the manuscript: an author cannot review their own submission.' };
  }
  if (authors.some((a) => sameEmail(a.email, reviewer.email))) {
    return {
      refusal: 'This person is an author of the manuscript: an author cannot review their own submission.',
    };
  }
  const shared = [submitter, ...authors].find((a) => sameInstitution(a.affiliation, reviewer.affiliation));
  if (shared) {
    return {
      warning: `The reviewer's institution (${reviewer.affiliation}) is also an author's: check that there is no conflict of interest.`,
    };
  }
  return {};
}

// ---- The invitation link's token ----------------------------------------------------------------------

/**
 * The invitation link's secret: `<assignment id>.<HMAC-SHA256(key, "review:<id>:<nonce>")>`. Nothing of it is
 * stored in clear (only the nonce, which opens nothing without the server's secret); it is checked by
 * recomputing, and stops working when the nonce changes or the assignment closes.
 */
export class ReviewLinks {
  private readonly key: Buffer;

  constructor(serverSecret: string) {
    // A key of its own, derived from the server's secret: a review link is never a valid session token.
    this.key = createHmac('sha256', serverSecret).update('colophon review links v1').digest();
  }

  private mac(id: number, nonce: string): string {
    return createHmac('sha256', this.key).update(`review:${id}:${nonce}`).digest('base64url');
  }

  token(id: number, nonce: string): string {
    return `${id}.${this.mac(id, nonce)}`;
  }

  /** The assignment id a token names (still to be verified against its nonce), or null if malformed. */
  static idOf(token: string): number | null {
    const m = /^(\d{1,10})\.[A-Za-z0-9_-]{43}$/.exec(token);
    return m ? Number(m[1]) : null;
  }

  verify(token: string, id: number, nonce: string): boolean {
    const expected = Buffer.from(this.token(id, nonce));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

export { DAY_MS };
