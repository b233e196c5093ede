import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { FRAME_BY_INDEX, frameOf } from '@campus/contract';
import { useTabPane } from '../../hooks/use-tab-pane';
import { TabPanes } from './tab-panes';
import { MAX_MOUNTED_TABS, type TabState } from './tab-state';

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
  recent: ['index', 'personalInformation'],
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

  it('unmounts the pages of tabs beyond the mounted limit, and mounts one again when shown', async () => {
    const others = [...FRAME_BY_INDEX.keys()].filter((index) => index !== 'index').slice(0, MAX_MOUNTED_TABS + 2);
    const many = ['index', ...others];
    const open = (activeIndex: string, recent: string[]): TabState => ({ tabs: many.map(tab), activeIndex, remountKeys: {}, recent });
    const newest = others.at(-1)!;
    const { rerender, container } = render(<TabPanes state={open(newest, many.slice().reverse())} onRefresh={() => undefined} />);
    await screen.findByText(`${newest}:0:shown`);
    expect(container.querySelectorAll('.tab-pane')).toHaveLength(MAX_MOUNTED_TABS);
    expect(container.querySelector('[data-tab="index"]')).toBeNull();
    rerender(<TabPanes state={open('index', ['index', ...many.slice().reverse()])} onRefresh={() => undefined} />);
    expect(await screen.findByText('index:0:shown')).toBeTruthy();
    expect(container.querySelectorAll('.tab-pane')).toHaveLength(MAX_MOUNTED_TABS);
  });
});
