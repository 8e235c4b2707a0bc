import { describe, expect, it } from 'vitest';
import { profileSchema } from './account.ts';

const profile = (orcid: unknown) =>
  profileSchema.safeParse({ fullName: 'Ada', institution: 'Uni', contactNumber: '+44 20 7946 0000', orcid });

describe('ORCID iD on the profile', () => {
  it('takes the bare iD or the orcid.org address, and keeps it bare', () => {
    expect(profile('https://orcid.org/0000-0002-1694-233x').data?.orcid).toBe('0000-0002-1694-233X');
    expect(profile(' 0000-0002-1825-0097 ').data?.orcid).toBe('0000-0002-1825-0097');
    expect(profile('').data?.orcid).toBeNull();
    expect(profile(null).data?.orcid).toBeNull();
    expect(profile(undefined).success).toBe(true);
  });

  it('refuses a wrong shape and a wrong check digit, each with its own message', () => {
    expect(profile('0000-0002-1825').error?.issues[0].message).toBe(
      'ORCID iD must look like 0000-0002-1825-0097 (four groups of four).',
    );
    expect(profile('0000-0002-1825-0098').error?.issues[0].message).toBe(
      'This ORCID iD has a wrong check digit: copy it from your ORCID record.',
    );
  });
});
