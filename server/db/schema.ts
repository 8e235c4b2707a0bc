// The one Drizzle schema: each area keeps its tables beside its service; this file gathers them.
export * from '../accounts/tables.ts';
export * from '../audit/tables.ts';
export * from '../catalog/tables.ts';
export * from '../contact/tables.ts';
export * from '../files/tables.ts';
export * from '../settings/tables.ts';
export * from '../submissions/tables.ts';
export * from '../subscriptions/tables.ts';
export * from '../similarity/tables.ts';
export * from '../metrics/tables.ts';
export * from '../search/tables.ts';
export * from '../jobs/tables.ts';
export * from '../mail/tables.ts';
export * from '../review/tables.ts';
export * from '../fulltext/tables.ts';
export * from '../counters/tables.ts';
export * from '../cache/tables.ts';
