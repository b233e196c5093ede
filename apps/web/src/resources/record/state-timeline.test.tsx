import { TerminalAppUpgrade, UPGRADE_PLAN_STATES, type StateHistoryEntry } from '@campus/contract';
import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { setLocale } from '../../lib/i18n';
import { renderPage } from '../../test/render-page';
import type { ResourceApi } from '../shared/resource-api';
import { StateTimeline } from './state-timeline';

const WAIT = { timeout: 5000 };

const step = (entry: Partial<StateHistoryEntry> & Pick<StateHistoryEntry, 'verb' | 'to'>): StateHistoryEntry => ({
  at: '2026-11-20T02:00:00.000Z',
  userId: null,
  userName: null,
  from: null,
  remark: null,
  ...entry,
});

describe('<StateTimeline>', () => {
  beforeEach(() => setLocale('en'));

  it('names who made each step: a user, a deleted user, or the platform for its own transitions', async () => {
    const history: StateHistoryEntry[] = [
      step({ verb: 'Release', from: UPGRADE_PLAN_STATES.draft, to: UPGRADE_PLAN_STATES.released, userId: 1, userName: 'System admin' }),
      step({ verb: 'Pause', from: UPGRADE_PLAN_STATES.released, to: UPGRADE_PLAN_STATES.paused, userId: 9, userName: null }),
      step({ verb: 'Complete', from: UPGRADE_PLAN_STATES.paused, to: UPGRADE_PLAN_STATES.completed }),
    ];
    const api = { history: async () => history } as unknown as ResourceApi;
    renderPage(<StateTimeline def={TerminalAppUpgrade} api={api} rowId={1} />, { frame: { fixedId: 1, index: 'upVersion' } });
    expect(await screen.findByText(/System admin ·/, undefined, WAIT)).toBeTruthy();
    expect(screen.getByText(/Deleted user ·/)).toBeTruthy();
    expect(screen.getByText(/The platform ·/)).toBeTruthy();
    // The platform's step is named by the declaration's system transition, not by its verb.
    expect(screen.getByText('Every device done')).toBeTruthy();
  });
});
