import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { frameOf } from '@campus/contract';
import { useTabPane } from '../../hooks/use-tab-pane';
import { TabPanes } from './tab-panes';
import type { TabState } from './tab-state';

function Counter() {
  const [count, setCount] = useState(0);
  const pane = useTabPane();
  return (
    <button type="button" onClick={() => setCount((value) => value + 1)}>
      {pane?.index}:{count}:{pane?.isActive ? 'shown' : 'hidden'}
    </button>
  );
}

// Two plain pages stand in for the lazy registry so the test is about keep-alive, not loading.
vi.mock('../../pages/registry', () => ({
  pageOf: (index: string) => ({ index, frame: frameOf(index), componentName: 'Counter', Component: Counter }),
}));

const tab = (index: string) => ({ index, title: index, path: `/${index}`, componentName: 'Counter' });
const state = (activeIndex: string, remountKeys: Record<string, number> = {}): TabState => ({
  tabs: [tab('index'), tab('personalInformation')],
  activeIndex,
  remountKeys,
});

describe('TabPanes (keep-alive)', () => {
  it('keeps a hidden tab mounted with its state, and only hides it', async () => {
    const { rerender } = render(<TabPanes state={state('personalInformation')} onRefresh={() => undefined} />);
    const button = await screen.findByRole('button', { name: 'personalInformation:0:shown' });
    fireEvent.click(button);
    fireEvent.click(button);

    rerender(<TabPanes state={state('index')} onRefresh={() => undefined} />);
    const hidden = screen.getByText('personalInformation:2:hidden');
    expect(hidden.closest<HTMLElement>('.tab-pane')?.style.display).toBe('none');

    rerender(<TabPanes state={state('personalInformation')} onRefresh={() => undefined} />);
    expect(screen.getByRole('button', { name: 'personalInformation:2:shown' })).toBeTruthy();
  });

  it('remounts only the refreshed tab', async () => {
    const { rerender } = render(<TabPanes state={state('index')} onRefresh={() => undefined} />);
    fireEvent.click(await screen.findByText(/^index:0/));
    fireEvent.click(screen.getByText(/^personalInformation:0/));
    act(() => rerender(<TabPanes state={state('index', { personalInformation: 1 })} onRefresh={() => undefined} />));
    expect(screen.getByText(/^index:1/)).toBeTruthy();
    expect(screen.getByText(/^personalInformation:0/)).toBeTruthy();
  });
});
