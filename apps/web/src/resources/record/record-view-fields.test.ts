import { MaintenanceTicket, RESOURCES, School } from '@campus/contract';
import { describe, expect, it } from 'vitest';
import { recordTitleOf, recordViewFieldsOf } from './record-view-fields';

const Refund = RESOURCES.Refund!;

describe('recordViewFieldsOf', () => {
  it('shows what a reader needs beyond the list: a fault description and photo, a street address', () => {
    expect(Object.keys(recordViewFieldsOf(MaintenanceTicket))).toEqual(expect.arrayContaining(['description', 'photo', 'resolution']));
    expect(recordViewFieldsOf(School).schoolAddress?.list).toBe(true);
  });

  it('leaves out what the family keeps out of lists and exports alike', () => {
    expect(Object.keys(recordViewFieldsOf(Refund))).not.toContain('nextQueryAt');
  });
});

describe('recordTitleOf', () => {
  it('names a refund not yet sent by its payment, never by a bare id', () => {
    expect(recordTitleOf(Refund, { id: 7, outRefundNo: null, paymentId: 3, paymentIdLabel: 'P2026112700000001' }, 'en')).toBe('Payment P2026112700000001');
    expect(recordTitleOf(Refund, { id: 7, outRefundNo: 'RF2026112700000007' }, 'en')).toBe('RF2026112700000007');
  });
});
