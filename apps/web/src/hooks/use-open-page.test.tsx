import { MaintenanceTicket, PENDING_LIST_FILTERS } from '@campus/contract';
import { act, render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { listStateFromSearch } from '../resources/list/list-url';
import { useOpenPage } from './use-open-page';

describe('useOpenPage', () => {
  it("opens a pending link with a list filter in the address the list reads: the open tickets' three states", () => {
    const seen: { open?: ReturnType<typeof useOpenPage>; location?: string } = {};
    function Probe() {
      seen.open = useOpenPage();
      const location = useLocation();
      seen.location = `${location.pathname}${location.search}`;
      return null;
    }
    render(
      <MemoryRouter initialEntries={['/index']}>
        <Probe />
      </MemoryRouter>,
    );
    act(() => seen.open!('equipmentMaintenance', PENDING_LIST_FILTERS.equipmentMaintenance));
    expect(seen.location).toBe('/equipmentMaintenance?state=1&state=2&state=3');
    expect(listStateFromSearch(MaintenanceTicket, seen.location!.slice(seen.location!.indexOf('?'))).filters).toEqual({ state: [1, 2, 3] });

    act(() => seen.open!('deviceInformation', PENDING_LIST_FILTERS.deviceInformation));
    expect(seen.location).toBe('/deviceInformation?licensePending=true');
  });
});
