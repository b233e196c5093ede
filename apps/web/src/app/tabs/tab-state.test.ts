import { describe, expect, it } from 'vitest';
import { createTabState, mountedTabIndexes, restoreTabState, tabReducer, type TabEntry, type TabState } from './tab-state';

const tab = (index: string): TabEntry => ({ index, title: index, path: `/${index}`, componentName: `${index}Page` });
const home = tab('index');

function stateWith(indexes: string[], activeIndex: string): TabState {
  return { tabs: [home, ...indexes.map(tab)], activeIndex, remountKeys: {}, recent: [activeIndex] };
}
const indexesOf = (state: TabState) => state.tabs.map((entry) => entry.index);

describe('tabReducer', () => {
  it('starts with the home tab active', () => {
    expect(createTabState(home)).toEqual({ tabs: [home], activeIndex: 'index', remountKeys: {}, recent: ['index'] });
  });

  it('adds a tab once and activates it', () => {
    let state = tabReducer(createTabState(home), { type: 'open', tab: tab('a') });
    state = tabReducer(state, { type: 'open', tab: tab('b') });
    state = tabReducer(state, { type: 'open', tab: tab('a') });
    expect(indexesOf(state)).toEqual(['index', 'a', 'b']);
    expect(state.activeIndex).toBe('a');
  });

  it('keeps the same state object when an already active tab is opened again', () => {
    const state = stateWith(['a'], 'a');
    expect(tabReducer(state, { type: 'open', tab: tab('a') })).toBe(state);
  });

  it('updates the path of a tab reopened with another query', () => {
    const state = tabReducer(stateWith(['a'], 'index'), { type: 'open', tab: { ...tab('a'), path: '/a?page=2' } });
    expect(state.tabs[1]?.path).toBe('/a?page=2');
    expect(state.activeIndex).toBe('a');
  });

  it('switches to the next tab when the active one closes', () => {
    const state = tabReducer(stateWith(['a', 'b', 'c'], 'b'), { type: 'close', index: 'b' });
    expect(indexesOf(state)).toEqual(['index', 'a', 'c']);
    expect(state.activeIndex).toBe('c');
  });

  it('switches to the previous tab when the active last one closes', () => {
    const state = tabReducer(stateWith(['a', 'b'], 'b'), { type: 'close', index: 'b' });
    expect(state.activeIndex).toBe('a');
  });

  it('falls back to the home tab when the only other tab closes', () => {
    const state = tabReducer(stateWith(['a'], 'a'), { type: 'close', index: 'a' });
    expect(indexesOf(state)).toEqual(['index']);
    expect(state.activeIndex).toBe('index');
  });

  it('keeps the active tab when an inactive one closes', () => {
    const state = tabReducer(stateWith(['a', 'b'], 'a'), { type: 'close', index: 'b' });
    expect(state.activeIndex).toBe('a');
    expect(indexesOf(state)).toEqual(['index', 'a']);
  });

  it('never closes the home tab', () => {
    const state = stateWith(['a'], 'index');
    expect(tabReducer(state, { type: 'close', index: 'index' })).toBe(state);
  });

  it('ignores closing a tab that is not open', () => {
    const state = stateWith(['a'], 'a');
    expect(tabReducer(state, { type: 'close', index: 'zzz' })).toBe(state);
  });

  it('close others keeps only the home tab and the given tab, which becomes active', () => {
    const state = tabReducer(stateWith(['a', 'b', 'c'], 'a'), { type: 'closeOthers', index: 'b' });
    expect(indexesOf(state)).toEqual(['index', 'b']);
    expect(state.activeIndex).toBe('b');
  });

  it('close others on the home tab leaves only home', () => {
    const state = tabReducer(stateWith(['a', 'b'], 'a'), { type: 'closeOthers', index: 'index' });
    expect(indexesOf(state)).toEqual(['index']);
    expect(state.activeIndex).toBe('index');
  });

  it('close all goes back to the home tab', () => {
    const state = tabReducer(stateWith(['a', 'b'], 'b'), { type: 'closeAll' });
    expect(indexesOf(state)).toEqual(['index']);
    expect(state.activeIndex).toBe('index');
  });

  it('refresh bumps only that tab\'s remount key', () => {
    let state = tabReducer(stateWith(['a', 'b'], 'a'), { type: 'refresh', index: 'a' });
    state = tabReducer(state, { type: 'refresh', index: 'a' });
    expect(state.remountKeys).toEqual({ a: 2 });
    expect(state.activeIndex).toBe('a');
    expect(tabReducer(state, { type: 'close', index: 'a' }).remountKeys).toEqual({});
  });
});

describe('restoreTabState', () => {
  it('brings back the saved tabs and the active one', () => {
    const saved = { tabs: [home, tab('a'), tab('b')], activeIndex: 'b' };
    expect(restoreTabState(saved, home, () => true)).toEqual({ tabs: [home, tab('a'), tab('b')], activeIndex: 'b', remountKeys: {}, recent: ['b'] });
  });

  it('drops tabs that may no longer be opened and puts home first', () => {
    const saved = { tabs: [tab('a'), tab('gone'), tab('a')], activeIndex: 'gone' };
    const state = restoreTabState(saved, home, (index) => index !== 'gone');
    expect(indexesOf(state)).toEqual(['index', 'a']);
    expect(state.activeIndex).toBe('index');
  });

  it('starts fresh from garbage', () => {
    expect(restoreTabState('nope', home, () => true)).toEqual(createTabState(home));
  });
});

describe('mountedTabIndexes (issue 26: tabs without bound)', () => {
  it('keeps the most recently shown tabs mounted, up to the limit, and always the active one', () => {
    let state = createTabState(home);
    for (const index of ['a', 'b', 'c', 'd', 'e']) state = tabReducer(state, { type: 'open', tab: tab(index) });
    expect([...mountedTabIndexes(state, 3)]).toEqual(['e', 'd', 'c']);
    // Showing an old tab again mounts it and lets the least recently shown go.
    state = tabReducer(state, { type: 'open', tab: tab('a') });
    expect([...mountedTabIndexes(state, 3)]).toEqual(['a', 'e', 'd']);
    // A closed tab leaves the list; the tab shown instead is first.
    state = tabReducer(state, { type: 'close', index: 'a' });
    expect([...mountedTabIndexes(state, 3)]).toEqual(['b', 'e', 'd']);
  });

  it('mounts only the shown tab after a reload', () => {
    const restored = restoreTabState({ tabs: [tab('a'), tab('b')], activeIndex: 'a' }, home, () => true);
    expect([...mountedTabIndexes(restored)]).toEqual(['a']);
  });
});
