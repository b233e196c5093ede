import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import type { NavigationGroup } from '@campus/contract';
import { Permission } from '../components/permission';
import { saveSession } from '../lib/session';
import { TabPaneContext } from './use-tab-pane';

const tree: NavigationGroup[] = [
  {
    id: 3,
    key: 'sales',
    title: '销售',
    titleEn: 'Sales',
    icon: 'shop',
    children: [
      { fixedId: 301, index: 'schoolManage', title: '学校管理', titleEn: 'Schools', sort: 1, badge: null, authorised: true, buttons: ['add', 'export'] },
    ],
  },
];

function renderInTab(index: string, node: ReactNode) {
  saveSession({ token: 't', schoolName: '', userName: 'u', userId: 1, schoolId: 0, classId: 0, tokenTime: '', frameIds: [301] });
  const client = new QueryClient();
  client.setQueryData(['navigationTree', 't'], tree);
  return render(
    <QueryClientProvider client={client}>
      <TabPaneContext.Provider value={{ index, path: `/${index}`, isActive: false, refresh: () => undefined }}>{node}</TabPaneContext.Provider>
    </QueryClientProvider>,
  );
}

describe('<Permission>', () => {
  it('keeps buttons whose value the tab\'s frame grants and removes the others', () => {
    renderInTab(
      'schoolManage',
      <>
        <Permission button="add">
          <button>add</button>
        </Permission>
        <Permission button="delete">
          <button>delete</button>
        </Permission>
      </>,
    );
    expect(screen.queryByRole('button', { name: 'add' })).not.toBeNull();
    expect(screen.queryByRole('button', { name: 'delete' })).toBeNull();
  });

  it('grants nothing on a frame missing from the tree', () => {
    renderInTab(
      'studentInfo',
      <Permission button="add">
        <button>add</button>
      </Permission>,
    );
    expect(screen.queryByRole('button', { name: 'add' })).toBeNull();
  });
});
