import { FeverAlert, MaintenanceTicket, Order, TICKET_STATE_OPTIONS, type ButtonValue } from '@campus/contract';
import { describe, expect, it } from 'vitest';
import { allowedRowActions } from '../shared/permissions';
import type { ResourceRow } from '../shared/resource-api';
import type { RowActionItem } from '../list/row-actions';
import { isRowEditable, needsForm, rowActionsFor } from './transitions';

const holding =
  (...buttons: ButtonValue[]) =>
  (button: ButtonValue) =>
    buttons.includes(button);

/** The row's actions as names: transitions by verb, the others by kind. */
function offered(state: number, can: (button: ButtonValue) => boolean): string[] {
  const items: RowActionItem[] = allowedRowActions(MaintenanceTicket, can).map((spec) => ({ spec }));
  const row: ResourceRow = { id: 1, version: 1, state };
  return rowActionsFor(MaintenanceTicket, items, row).map((item) =>
    'spec' in item ? (item.spec.kind === 'transition' ? item.spec.transition.verb : item.spec.kind) : item.extra.key,
  );
}

describe('rowActionsFor', () => {
  it("offers exactly the transitions that start from the row's state", () => {
    const byState = Object.fromEntries(TICKET_STATE_OPTIONS.map((option) => [option.en, offered(option.value, holding('update', 'state'))]));
    expect(byState).toEqual({
      Open: ['edit', 'Assign', 'Close'],
      Assigned: ['edit', 'Assign', 'Start', 'Close'],
      'In progress': ['edit', 'Complete', 'Close'],
      Done: ['history'],
      Closed: ['history'],
    });
  });

  it('offers no transition whose button the caller lacks, and the history instead of the edit drawer', () => {
    expect(offered(1, holding('export'))).toEqual(['history']);
    expect(offered(2, holding('state'))).toEqual(['Assign', 'Start', 'Close', 'history']);
  });
});

describe('rowActionsFor on an order', () => {
  it('offers edit only while submitted and delete only while submitted or cancelled', () => {
    const can = holding('update', 'delete', 'examine', 'send', 'state', 'close');
    const items: RowActionItem[] = allowedRowActions(Order, can).map((spec) => ({ spec }));
    const names = (state: number) =>
      rowActionsFor(Order, items, { id: 1, version: 1, state }).map((item) => ('spec' in item ? (item.spec.kind === 'transition' ? item.spec.transition.verb : item.spec.kind) : ''));
    expect(names(1)).toEqual(['edit', 'Confirm', 'Cancel', 'delete']);
    expect(names(2)).toEqual(['Ship', 'Cancel', 'history']);
    expect(names(3)).toEqual(['Complete', 'history']);
    expect(names(5)).toEqual(['history', 'delete']);
  });
});

describe('isRowEditable', () => {
  it("follows the workflow's editableIn, and allows every row of a family without one", () => {
    expect(isRowEditable(Order, { id: 1, version: 1, state: 1 })).toBe(true);
    expect(isRowEditable(Order, { id: 1, version: 1, state: 2 })).toBe(false);
    expect(isRowEditable(FeverAlert, { id: 1, version: 1 })).toBe(true);
  });
});

describe('needsForm', () => {
  it('opens a form only for transitions with fields or a password to ask', () => {
    const verbs = MaintenanceTicket.workflow.transitions.filter((transition) => needsForm(transition)).map((transition) => transition.verb);
    expect(verbs).toEqual(['Assign', 'Complete', 'Close']);
    expect(needsForm({ ...MaintenanceTicket.workflow.transitions[1]!, reauth: 'refundPassword' })).toBe(true);
  });
});

describe('rowActionsFor on a family without a workflow', () => {
  it("drops a declared action the row's values rule out (an acknowledged fever alert)", () => {
    const items: RowActionItem[] = allowedRowActions(FeverAlert, holding('examine')).map((spec) => ({ spec }));
    const verbs = (acknowledged: boolean) =>
      rowActionsFor(FeverAlert, items, { id: 1, version: 1, acknowledged }).map((item) => ('spec' in item && item.spec.kind === 'action' ? item.spec.action.verb : ''));
    expect(verbs(false)).toEqual(['Acknowledge']);
    expect(verbs(true)).toEqual([]);
  });
});
