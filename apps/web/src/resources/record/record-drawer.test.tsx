import { DeviceClass } from '@campus/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { TestApp } from '../../test/antd.js';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setLocale } from '../../lib/i18n';
import { RequestError } from '../../lib/request';
import { RecordDrawer } from './record-drawer';
import type { ResourceApi, ResourceRow } from '../shared/resource-api';

// A button by its text: *ByRole computes accessible names over the whole drawer, which costs seconds in jsdom.
const buttonOf = (text: string) => screen.getByText(text).closest('button')!;

const WAIT = { timeout: 5000 };

const stored: ResourceRow = { id: 7, version: 3, type: 1, name: 'Gate G3', code: 'GATE-G3', snPrefix: 'G3', licenseEnabled: false } as ResourceRow;

function renderEdit(api: Partial<ResourceApi>, extraTabs?: { key: string; label: string; children: ReactNode }[]) {
  const onSaved = vi.fn();
  const onClose = vi.fn();
  render(
    <TestApp>
      <QueryClientProvider client={new QueryClient()}>
        <RecordDrawer
          def={DeviceClass}
          api={api as ResourceApi}
          target={{ mode: 'edit', row: stored }}
          hiddenFields={new Set()}
          presetValues={{}}
          extraTabs={extraTabs}
          onClose={onClose}
          onSaved={onSaved}
        />
      </QueryClientProvider>
    </TestApp>,
  );
  return { onSaved, onClose };
}

const conflict = () =>
  new RequestError({ message: 'changed by someone else', status: 409, code: 409, errors: [], url: '/api/DeviceClass/Update', kind: 'http', data: null });

describe('<RecordDrawer> on a stale version', { timeout: 15_000 }, () => {
  beforeEach(() => setLocale('en'));

  it('sends only the changed field with the version it read', async () => {
    const update = vi.fn(async () => ({ id: 7, version: 4 }));
    const { onSaved } = renderEdit({ update });
    const name = await screen.findByDisplayValue('Gate G3', undefined, WAIT);
    fireEvent.change(name, { target: { value: 'Gate G3 Pro' } });
    fireEvent.click(buttonOf('Save'));
    await waitFor(() => expect(update).toHaveBeenCalledWith({ id: 7, version: 3, name: 'Gate G3 Pro' }), WAIT);
    await waitFor(() => expect(onSaved).toHaveBeenCalled(), WAIT);
  });

  it('offers to reload the stored row after a 409 and shows it', async () => {
    const update = vi.fn(async () => {
      throw conflict();
    });
    const get = vi.fn(async () => ({ ...stored, version: 4, name: 'Gate G3 (renamed elsewhere)' }) as ResourceRow);
    const { onSaved } = renderEdit({ update, get });
    const name = await screen.findByDisplayValue('Gate G3', undefined, WAIT);
    fireEvent.change(name, { target: { value: 'Mine' } });
    fireEvent.click(buttonOf('Save'));
    expect((await screen.findAllByText('Changed by someone else', undefined, WAIT)).length).toBeGreaterThan(0);
    fireEvent.click(buttonOf('Reload'));
    await waitFor(() => expect(get).toHaveBeenCalledWith(7), WAIT);
    expect(await screen.findByDisplayValue('Gate G3 (renamed elsewhere)', undefined, WAIT)).toBeTruthy();
    expect(onSaved).not.toHaveBeenCalled();
  });
});

describe('<RecordDrawer> with child tabs', { timeout: 15_000 }, () => {
  beforeEach(() => setLocale('en'));

  it("shows the record's form first and a child family in its own tab", async () => {
    renderEdit({}, [{ key: 'SchoolClass', label: 'Class', children: <p>classes of the row</p> }]);
    expect(await screen.findByDisplayValue('Gate G3', undefined, WAIT)).toBeTruthy();
    expect(screen.getByText('Details').closest('[role="tab"]')).toBeTruthy();
    fireEvent.click(screen.getByText('Class').closest('[role="tab"]')!);
    expect(await screen.findByText('classes of the row', undefined, WAIT)).toBeTruthy();
  });
});

describe('<RecordDrawer> closing', { timeout: 15_000 }, () => {
  beforeEach(() => setLocale('en'));

  it('closes an untouched form at once', async () => {
    const { onClose } = renderEdit({});
    await screen.findByDisplayValue('Gate G3', undefined, WAIT);
    fireEvent.click(buttonOf('Cancel'));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('asks before a half-filled form is thrown away, and keeps it when the user goes on editing', async () => {
    const { onClose } = renderEdit({});
    fireEvent.change(await screen.findByDisplayValue('Gate G3', undefined, WAIT), { target: { value: 'Gate G3 half' } });
    fireEvent.click(buttonOf('Cancel'));
    expect((await screen.findAllByText('Discard what you entered?', undefined, WAIT)).length).toBeGreaterThan(0);
    fireEvent.click(buttonOf('Keep editing'));
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByDisplayValue('Gate G3 half')).toBeTruthy();
    fireEvent.click(buttonOf('Cancel'));
    fireEvent.click(await waitFor(() => buttonOf('Discard'), WAIT));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1), WAIT);
  });
});
