import { describe, expect, it } from 'vitest';
import {
  couponActive,
  couponDiscountLabel,
  couponDurationLabel,
  couponInputSchema,
  couponRule,
} from '../../../contract/schemas/coupon';
import { couponMessages as m } from '../../../contract/messages';

const schema = couponInputSchema.superRefine(couponRule);
const errors = (body: unknown) => {
  const r = schema.safeParse(body);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('coupon input', () => {
  it('normalises the code to upper case and reads percent, amount and dates exactly', () => {
    const v = schema.parse({
      code: ' benvenuto-10 ',
      percentOff: '12,5',
      duration: 'once',
      planIds: ['3', 3, 4],
    });
    expect(v.code).toBe('BENVENUTO-10');
    expect(v.percentOff).toBe(1250);
    expect(v.amountOff).toBeUndefined();
    expect(v.planIds).toEqual([3, 4]);
    const a = schema.parse({ code: 'ABC', amountOff: 5, duration: 'forever', expiresAt: '2026-12-31' });
    expect(a.amountOff).toBe(500);
    expect(a.expiresAt).toBe('2026-12-31');
  });

  it('refuses bad codes, both or no discount, out-of-range figures, periods missing for repeating', () => {
    expect(errors({ code: 'ab', percentOff: 10, duration: 'once' })).toEqual([`code: ${m.codeInvalid}`]);
    expect(errors({ code: 'SCONTO 10', percentOff: 10, duration: 'once' })).toEqual([
      `code: ${m.codeInvalid}`,
    ]);
    expect(errors({ code: '', percentOff: 10, duration: 'once' })).toEqual([`code: ${m.codeRequired}`]);
    expect(errors({ code: 'ABC', duration: 'once' })).toEqual([`percentOff: ${m.discountRequired}`]);
    expect(errors({ code: 'ABC', percentOff: 10, amountOff: 5, duration: 'once' })).toEqual([
      `amountOff: ${m.discountBoth}`,
    ]);
    expect(errors({ code: 'ABC', percentOff: 0, duration: 'once' })).toEqual([
      `percentOff: ${m.percentInvalid}`,
    ]);
    expect(errors({ code: 'ABC', percentOff: 100.01, duration: 'once' })).toEqual([
      `percentOff: ${m.percentInvalid}`,
    ]);
    expect(errors({ code: 'ABC', percentOff: 10.123, duration: 'once' })).toEqual([
      `percentOff: ${m.percentInvalid}`,
    ]);
    expect(errors({ code: 'ABC', amountOff: 0, duration: 'once' })).toEqual([
      `amountOff: ${m.amountInvalid}`,
    ]);
    expect(errors({ code: 'ABC', amountOff: 4.999, duration: 'once' })).toEqual([
      `amountOff: ${m.amountInvalid}`,
    ]);
    expect(errors({ code: 'ABC', percentOff: 10, duration: 'repeating' })).toEqual([
      `durationPeriods: ${m.periodsRequired}`,
    ]);
    expect(errors({ code: 'ABC', percentOff: 10, duration: 'repeating', durationPeriods: 37 })).toEqual([
      `durationPeriods: ${m.periodsInvalid}`,
    ]);
    expect(errors({ code: 'ABC', percentOff: 10, duration: 'sometimes' })).toEqual([
      `duration: ${m.durationRequired}`,
    ]);
    expect(errors({ code: 'ABC', percentOff: 10, duration: 'once', maxRedemptions: 0 })).toEqual([
      `maxRedemptions: ${m.maxRedemptionsInvalid}`,
    ]);
    expect(errors({ code: 'ABC', percentOff: 10, duration: 'once', expiresAt: '2026-02-30' })).toEqual([
      `expiresAt: ${m.expiresInvalid}`,
    ]);
    expect(errors({ code: 'ABC', percentOff: 10, duration: 'once', planIds: ['x'] })).toEqual([
      `planIds.0: ${m.planUnknown}`,
    ]);
  });

  it('is active until its last day and while uses remain', () => {
    const c = { expiresAt: '2026-03-31', maxRedemptions: 2, timesRedeemed: 1 };
    expect(couponActive(c, '2026-03-31')).toBe(true);
    expect(couponActive(c, '2026-04-01')).toBe(false);
    expect(couponActive({ ...c, timesRedeemed: 2 }, '2026-03-01')).toBe(false);
    expect(couponActive({ expiresAt: null, maxRedemptions: null, timesRedeemed: 99 }, '2030-01-01')).toBe(
      true,
    );
  });

  it('labels the discount and the duration in Italian', () => {
    expect(couponDiscountLabel({ percentOff: 10, amountOff: null })).toBe('10%');
    expect(couponDiscountLabel({ percentOff: null, amountOff: 5 }).replace(/\s/g, ' ')).toBe('5,00 €');
    expect(couponDurationLabel({ duration: 'once', durationPeriods: null })).toBe('Una volta');
    expect(couponDurationLabel({ duration: 'repeating', durationPeriods: 3 })).toBe('Per 3 periodi');
    expect(couponDurationLabel({ duration: 'forever', durationPeriods: null })).toBe('Sempre');
  });
});
