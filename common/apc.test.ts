import { describe, expect, it } from 'vitest';
import {
  APC_DEFAULTS,
  chargeFor,
  formatMoney,
  invoiceBalance,
  moneyText,
  parseMoney,
  ruleLines,
} from './apc.ts';

describe('money', () => {
  it('parses decimal strings strictly into minor units', () => {
    expect(parseMoney('100')).toBe(10000);
    expect(parseMoney('100.5')).toBe(10050);
    expect(parseMoney('100.50')).toBe(10050);
    expect(parseMoney('0.01')).toBe(1);
    expect(parseMoney('0')).toBe(0);
    expect(parseMoney('1000000')).toBe(100_000_000);
    for (const bad of [
      '1e2',
      '-5',
      '100.123',
      '',
      ' 1',
      '1 ',
      '01',
      '1,000',
      '0x10',
      '.5',
      '5.',
      '+5',
      'NaN',
      'Infinity',
      '1000000.01',
    ])
      expect(parseMoney(bad), bad).toBeNull();
  });

  it('writes minor units without floating point', () => {
    expect(moneyText(10050)).toBe('100.50');
    expect(moneyText(7)).toBe('0.07');
    expect(formatMoney(10000, 'USD')).toBe('100 USD');
    expect(formatMoney(10050, 'EUR')).toBe('100.50 EUR');
  });
});

describe('the rule', () => {
  it('charges on or after the cut-off day, nothing before', () => {
    expect(chargeFor(APC_DEFAULTS, '2025-05-31')).toEqual({
      amountMinor: 0,
      reason: 'submitted 31 May 2025, before 1 June 2025: 0 USD',
    });
    expect(chargeFor(APC_DEFAULTS, '2025-06-01').amountMinor).toBe(10000);
    expect(chargeFor(APC_DEFAULTS, '2026-03-03').reason).toBe(
      'submitted 3 March 2026, on or after 1 June 2025: 100 USD',
    );
    expect(ruleLines(APC_DEFAULTS)).toEqual([
      { when: 'Before 1 June 2025', charge: '0 USD (free of charge)' },
      { when: 'On or after 1 June 2025', charge: '100 USD per accepted article' },
    ]);
  });

  it('derives what is owed and the state', () => {
    const base = { amountMinor: 10000, waivedMinor: 0, discountMinor: 0, paidMinor: 0, voided: false };
    expect(invoiceBalance(base).state).toBe('due');
    expect(invoiceBalance({ ...base, paidMinor: 4000 })).toEqual({
      dueMinor: 10000,
      outstandingMinor: 6000,
      state: 'part-paid',
    });
    expect(invoiceBalance({ ...base, paidMinor: 10000 }).state).toBe('paid');
    expect(invoiceBalance({ ...base, waivedMinor: 10000 }).state).toBe('waived');
    expect(invoiceBalance({ ...base, waivedMinor: 4000, paidMinor: 6000 }).state).toBe('paid');
    expect(invoiceBalance({ ...base, discountMinor: 10000 }).state).toBe('waived');
    expect(invoiceBalance({ ...base, voided: true })).toEqual({
      dueMinor: 10000,
      outstandingMinor: 0,
      state: 'void',
    });
    expect(invoiceBalance({ ...base, amountMinor: 0 }).state).toBe('none');
  });
});
