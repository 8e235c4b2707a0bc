import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { MailLogEntry } from '../../../server/mail/service.ts';
import { CommunicationLog } from './CommunicationLog.tsx';

const entry = (over: Partial<MailLogEntry>): MailLogEntry => ({
  id: 1,
  queuedAt: '2026-11-25T09:00:00.000Z',
  sentAt: null,
  recipients: 'ada@example.org',
  subject: '[COL-2026-0001] Invitation to review',
  body: 'Open it here: [link removed]',
  status: 'queued',
  attempts: 0,
  lastError: null,
  ...over,
});

const render = (entries: MailLogEntry[]) =>
  renderToStaticMarkup(createElement(CommunicationLog, { entries }));

describe('the communication log on the desk page', () => {
  it('shows a failed delivery with its attempts and its last error', () => {
    const html = render([
      entry({ id: 2, status: 'failed', attempts: 5, lastError: '550 mailbox unavailable' }),
      entry({ id: 1, status: 'sent', sentAt: '2026-11-25T09:01:00.000Z', attempts: 1 }),
    ]);
    expect(html).toContain('Not delivered (5 attempts)');
    expect(html).toContain('550 mailbox unavailable');
    expect(html).toContain('>Sent<');
    expect(html).toContain('25 November 2026 at 09:01 UTC');
    expect(html).toContain('[link removed]');
  });

  it('says so when no e-mail was sent yet, and waiting ones are marked', () => {
    expect(render([])).toContain('No e-mail about this submission yet.');
    expect(render([entry({ attempts: 1, lastError: 'timeout' })])).toContain(
      'Waiting to be sent (1 attempt)',
    );
  });
});
