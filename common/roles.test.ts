import { describe, expect, it } from 'vitest';
import { type Role, type Status, can } from './roles.ts';

const who = (role: Role, status: Status) => ({ role, status });

describe('permissions', () => {
  it('follows the spec guard: role allowed, and approved unless admin', () => {
    expect(can('editorial', who('editor', 'approved'))).toBe(true);
    expect(can('editorial', who('editor', 'pending'))).toBe(false);
    expect(can('editorial', who('admin', 'pending'))).toBe(true);
    expect(can('editorial', who('author', 'approved'))).toBe(false);
    expect(can('editorial', null)).toBe(false);
  });

  it('lets authors submit while pending, but not researchers', () => {
    expect(can('submit', who('author', 'pending'))).toBe(true);
    expect(can('submit', who('author', 'approved'))).toBe(true);
    expect(can('submit', who('researcher', 'approved'))).toBe(false);
    expect(can('submit', who('author', 'suspended'))).toBe(false);
    expect(can('submit', who('author', 'rejected'))).toBe(false);
  });

  it('lets approved researchers, authors and editors and any admin download', () => {
    expect(can('download', who('researcher', 'approved'))).toBe(true);
    expect(can('download', who('author', 'approved'))).toBe(true);
    expect(can('download', who('editor', 'approved'))).toBe(true);
    expect(can('download', who('admin', 'approved'))).toBe(true);
    expect(can('download', who('researcher', 'pending'))).toBe(false);
    expect(can('download', who('author', 'rejected'))).toBe(false);
    expect(can('download', who('researcher', 'suspended'))).toBe(false);
  });

  it('keeps account administration to admins', () => {
    expect(can('admin', who('admin', 'approved'))).toBe(true);
    expect(can('admin', who('editor', 'approved'))).toBe(false);
  });

  it('keeps the site’s journals to site admins, whatever their role in a journal', () => {
    expect(can('siteAdmin', { ...who('author', 'pending'), siteAdmin: true })).toBe(true);
    expect(can('siteAdmin', who('admin', 'approved'))).toBe(false);
    expect(can('siteAdmin', { ...who('editor', 'approved'), siteAdmin: false })).toBe(false);
  });
});
