import { describe, expect, it } from 'vitest';
import { stampDutyDeadlines, stampDutySummary } from '../../../contract/invoice/stamp-duty';

/** The later deadline of each quarter, for documents counted per quarter (invoices only). */
const deferred = (year: number, counts: number[]) =>
  stampDutySummary(
    year,
    counts.map((invoices, i) => ({ quarter: i + 1, invoices, creditNotes: 0 })),
  ).quarters.map((q) => q.deferredTo);

describe('the bollo’s F24 deadlines (art. 17 c. 1-bis DL 124/2019)', () => {
  it('end of the second month after the quarter, the third for the 2nd; February of the next year, 29 in a leap year', () => {
    expect(stampDutyDeadlines(2026)).toEqual(['2026-05-31', '2026-09-30', '2026-11-30', '2027-02-28']);
    expect(stampDutyDeadlines(2027)[3]).toBe('2028-02-29');
    expect(stampDutyDeadlines(2099)[3]).toBe('2100-02-28');
  });

  it('under 5.000 €, the 1st quarter with the 2nd (30/09) or, the two together, with the 3rd (30/11)', () => {
    // 1.000 + 1.000 documents: 4.000 € together, both by 30 November.
    expect(deferred(2026, [1000, 1000, 10, 10])).toEqual(['2026-11-30', '2026-11-30', null, null]);
    // 2.000 € then 3.000 €: 5.000 € is not under 5.000 €; the 1st alone still is.
    expect(deferred(2026, [1000, 1500, 0, 0])).toEqual(['2026-09-30', null, null, null]);
    // 5.000 € in the 1st quarter: its own deadline.
    expect(deferred(2026, [2500, 1, 0, 0])).toEqual([null, null, null, null]);
    // Nothing due, nothing deferred.
    expect(deferred(2026, [0, 3, 0, 0])).toEqual([null, '2026-11-30', null, null]);
  });

  it('2,00 € a document, credit notes included, with the codici tributo 2521–2524', () => {
    const s = stampDutySummary(2026, [{ quarter: 3, invoices: 4, creditNotes: 1 }]);
    expect(s.total).toBe(10);
    expect(s.quarters.map((q) => [q.taxCode, q.count, q.total])).toEqual([
      ['2521', 0, 0],
      ['2522', 0, 0],
      ['2523', 5, 10],
      ['2524', 0, 0],
    ]);
  });
});
