import { TerminalAppUpgrade } from '@campus/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setLocale } from '../../lib/i18n';
import { TestApp } from '../../test/antd.js';
import { ReadOnlyLines, readOnlyLinesOf } from './read-only-lines';
import type { ResourceApi, ResourceRow } from '../shared/resource-api';

const WAIT = { timeout: 5000 };

describe('<ReadOnlyLines>', { timeout: 15_000 }, () => {
  beforeEach(() => setLocale('en'));

  it("finds the lines only the server writes: an upgrade plan's devices", () => {
    expect(readOnlyLinesOf(TerminalAppUpgrade).map(([name]) => name)).toEqual(['targets']);
  });

  it("reads the row and shows each device's progress with its labels", async () => {
    const plan = {
      id: 3,
      version: 2,
      targets: [
        { deviceId: 11, deviceIdLabel: 'G31001', state: 'UPDATED', fromVersion: '2.4.1', message: null },
        { deviceId: 12, deviceIdLabel: 'G31004', state: 'FAILED', fromVersion: '2.4.1', message: 'checksum mismatch' },
      ],
    } as unknown as ResourceRow;
    const get = vi.fn(async () => plan);
    render(
      <TestApp>
        <QueryClientProvider client={new QueryClient()}>
          <ReadOnlyLines def={TerminalAppUpgrade} api={{ get } as unknown as ResourceApi} rowId={3} />
        </QueryClientProvider>
      </TestApp>,
    );
    expect(await screen.findByText('G31004', undefined, WAIT)).toBeTruthy();
    expect(screen.getByText('G31001')).toBeTruthy();
    expect(screen.getByText('checksum mismatch')).toBeTruthy();
    expect(screen.getByText('Devices')).toBeTruthy();
    expect(screen.getByText('Failed')).toBeTruthy();
    expect(get).toHaveBeenCalledWith(3);
  });
});
