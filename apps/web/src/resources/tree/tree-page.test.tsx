import { EducationDirectory, type NavigationGroup } from '@campus/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { TestApp } from '../../test/antd.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TabPaneContext } from '../../hooks/use-tab-pane';
import { setLocale } from '../../lib/i18n';
import { saveSession } from '../../lib/session';
import type { ResourceApi, TreeRow } from '../shared/resource-api';
import { TreePage } from './tree-page';

const RENDER_WAIT = { timeout: 5000 };

const navigation = (buttons: string[]): NavigationGroup[] => [
  {
    id: 4,
    key: 'education',
    title: '教育',
    titleEn: 'Education',
    icon: 'book',
    children: [{ fixedId: 438, index: 'directoryManage', title: '目录管理', titleEn: 'Directories', sort: 1, badge: null, authorised: true, buttons } as NavigationGroup['children'][number]],
  },
];

const stored: TreeRow[] = [
  { id: 1, version: 1, name: 'Safety', parentId: null, sortOrder: 0, enabled: true, children: [{ id: 2, version: 1, name: 'Traffic', parentId: 1, sortOrder: 0, enabled: true }] },
  { id: 3, version: 1, name: 'Family', parentId: null, sortOrder: 1, enabled: true },
];

function renderTree(buttons: string[], api: Partial<ResourceApi>) {
  saveSession({ token: 't', schoolName: '', userName: 'admin', userId: 1, schoolId: 0, classId: 0, tokenTime: '', frameIds: [438] });
  vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ code: 200, message: 'ok', data: { hideAmountColumns: false } }), { headers: { 'Content-Type': 'application/json' } }));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(['navigationTree', 't'], navigation(buttons));
  return render(
    <TestApp>
      <QueryClientProvider client={client}>
        <TabPaneContext.Provider value={{ index: 'directoryManage', path: '/directoryManage', isActive: true, refresh: () => undefined }}>
          <TreePage def={EducationDirectory} frame="directoryManage" api={api as ResourceApi} />
        </TabPaneContext.Provider>
      </QueryClientProvider>
    </TestApp>,
  );
}

describe('<TreePage>', { timeout: 15_000 }, () => {
  beforeEach(() => setLocale('en'));
  afterEach(() => vi.unstubAllGlobals());

  it('shows the roots, expands every branch on "Expand all" and folds them again', async () => {
    renderTree(['add', 'update', 'delete'], { tree: async () => stored });
    expect(await screen.findByText('Safety', undefined, RENDER_WAIT)).toBeTruthy();
    expect(screen.queryByText('Traffic')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /Expand all/ }));
    expect(await screen.findByText('Traffic', undefined, RENDER_WAIT)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Collapse all/ }));
    await waitFor(() => expect(screen.queryByText('Traffic')).toBeNull(), RENDER_WAIT);
  });

  it('shows a failed read with a retry instead of an empty tree, as the list does', async () => {
    let reads = 0;
    renderTree([], {
      tree: async () => {
        reads += 1;
        if (reads === 1) throw new Error('the tree could not be read');
        return stored;
      },
    });
    const failure = await screen.findByTestId('search-failed', undefined, RENDER_WAIT);
    fireEvent.click(within(failure).getByRole('button', { name: /Retry/ }));
    expect(await screen.findByText('Safety', undefined, RENDER_WAIT)).toBeTruthy();
  });

  it('adds a child under the row it was asked on, without asking for the parent', async () => {
    const add = vi.fn(async () => ({ id: 9 }));
    renderTree(['add'], { tree: async () => stored, add });
    await screen.findByText('Family', undefined, RENDER_WAIT);
    const familyRow = screen.getByText('Family').closest('tr')!;
    fireEvent.click(within(familyRow).getByRole('button', { name: 'Add child' }));
    const drawer = await screen.findByRole('dialog', undefined, RENDER_WAIT);
    expect(within(drawer).queryByText('Parent directory')).toBeNull();
    fireEvent.change(within(drawer).getByLabelText('Name'), { target: { value: 'Reading' } });
    fireEvent.click(within(drawer).getByRole('button', { name: /Save/ }));
    await waitFor(() => expect(add).toHaveBeenCalledWith(expect.objectContaining({ name: 'Reading', parentId: 3 })), RENDER_WAIT);
  });

  it('moves a row dropped into another one', async () => {
    const move = vi.fn(async () => ({ id: 3, version: 2 }));
    renderTree(['update'], { tree: async () => stored, move });
    await screen.findByText('Family', undefined, RENDER_WAIT);
    const familyRow = screen.getByText('Family').closest('tr')!;
    const safetyRow = screen.getByText('Safety').closest('tr')!;
    // jsdom lays nothing out: a zero-height row puts every drop in its middle, i.e. "into".
    fireEvent.dragStart(familyRow);
    fireEvent.drop(safetyRow, { clientY: 0 });
    await waitFor(() => expect(move).toHaveBeenCalledWith({ id: 3, parentId: 1, orderIndex: 1 }), RENDER_WAIT);
  });
});
