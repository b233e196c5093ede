/**
 * The page of a tree family (`tree` in its declaration): the whole tree as an antd tree table with
 * expand all / collapse all, "add child" on each row, edit and delete, and moves by dragging a row
 * onto another (before, after, or into it). The server keeps the order and refuses cycles; a refused
 * delete (a node with children) shows the server's message.
 */
import { NodeCollapseOutlined, NodeExpandOutlined, PlusOutlined } from '@ant-design/icons';
import type { ResourceDef } from '@campus/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Space, Typography } from 'antd';
import { useMemo, useRef, useState, type DragEvent, type Key } from 'react';
import { usePermission } from '../../hooks/use-permission';
import { useVisibilityProbes } from '../../hooks/use-visibility-probes';
import { useLocale, useT } from '../../lib/i18n';
import { showToast } from '../../lib/toast';
import { buildColumns, type ResourceColumn } from '../list/columns';
import { ListTable } from '../list/list-table';
import { ListToolbar } from '../list/resource-toolbar';
import { RefreshButton } from '../list/table-settings';
import { labelText } from '../shared/labels';
import { RecordDrawer } from '../form/deferred-parts';
import { resourceApi, type ResourceApi, type ResourceRow, type TreeRow } from '../shared/resource-api';
import { branchIdsOf, dropZoneAt, moveForDrop } from './tree-drop';

export interface TreePageProps {
  def: ResourceDef;
  frame: string;
  /** The family's calls; the page's own by default (tests pass a stub). */
  api?: ResourceApi;
}

type TreeDrawer = { mode: 'add'; parentId: number | null } | { mode: 'edit'; row: ResourceRow };

export function TreePage({ def, frame, api: givenApi }: TreePageProps) {
  const t = useT();
  const locale = useLocale();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const { can } = usePermission(frame);
  const probes = useVisibilityProbes();
  const api = useMemo(() => givenApi ?? resourceApi(def.name, frame), [givenApi, def.name, frame]);
  const tree = def.tree!;
  const [expanded, setExpanded] = useState<readonly Key[]>([]);
  const [drawer, setDrawer] = useState<TreeDrawer | null>(null);
  const dragged = useRef<number | null>(null);

  const answer = useQuery({ queryKey: ['resource', def.name, frame, 'tree'], queryFn: () => api.tree() });
  const nodes = useMemo(() => answer.data ?? [], [answer.data]);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['resource', def.name] });

  const remove = (row: ResourceRow) =>
    modal.confirm({
      title: t('resource.deleteTitle'),
      content: t('resource.deleteOneConfirm', { family: labelText(def.label, locale), title: String(row[def.titleField] ?? row.id) }),
      okType: 'danger',
      okText: t('resource.delete'),
      cancelText: t('common.cancel'),
      // A node with children is refused by the server; the request client shows its message.
      onOk: async () => {
        await api.batchDelete([row.id]);
        showToast('success', t('resource.deleted', { count: 1 }));
        await refresh();
      },
    });

  const drop = async (event: DragEvent<HTMLElement>, target: TreeRow) => {
    event.preventDefault();
    const from = dragged.current;
    dragged.current = null;
    if (from === null) return;
    const box = event.currentTarget.getBoundingClientRect();
    const move = moveForDrop(nodes, from, target.id, dropZoneAt(event.clientY - box.top, box.height));
    if (!move) return;
    try {
      await api.move(move);
      if (move.parentId !== null) setExpanded((keys) => [...new Set([...keys, move.parentId!])]);
      showToast('success', t('resource.moved'));
    } catch {
      // The request client has shown the refusal; the tree is re-read below either way.
    }
    await refresh();
  };

  const columns: ResourceColumn[] = [
    ...buildColumns(def, { locale, hideAmountColumns: probes?.hideAmountColumns ?? false, hiddenFields: new Set([tree.parentField, tree.orderField]) }).map(
      (column) => ({ ...column, sorter: false }),
    ),
    {
      key: 'operations',
      title: t('resource.actions'),
      fixed: 'right',
      render: (_: unknown, row: ResourceRow) => (
        <Space size={0}>
          {can('add') && (
            <Button type="link" size="small" onClick={() => setDrawer({ mode: 'add', parentId: row.id })}>
              {t('resource.addChild')}
            </Button>
          )}
          {can('update') && (
            <Button type="link" size="small" onClick={() => setDrawer({ mode: 'edit', row })}>
              {t('resource.edit')}
            </Button>
          )}
          {can('delete') && (
            <Button type="link" size="small" danger onClick={() => remove(row)}>
              {t('resource.delete')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  const canMove = can('update');
  return (
    <div className="page-stack resource-page">
      <Card size="small">
        <ListToolbar end={<RefreshButton onRefresh={() => void answer.refetch()} isRefreshing={answer.isFetching} />}>
          {can('add') && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setDrawer({ mode: 'add', parentId: null })}>
              {t('resource.addRoot')}
            </Button>
          )}
          <Button icon={<NodeExpandOutlined />} onClick={() => setExpanded(branchIdsOf(nodes))}>
            {t('resource.expandAll')}
          </Button>
          <Button icon={<NodeCollapseOutlined />} onClick={() => setExpanded([])}>
            {t('resource.collapseAll')}
          </Button>
          {canMove && <Typography.Text type="secondary">{t('resource.dragHint')}</Typography.Text>}
        </ListToolbar>
        <ListTable<TreeRow>
          size="middle"
          columns={columns}
          rows={nodes}
          isLoading={answer.isFetching}
          failure={answer.isError && !answer.isFetching ? { error: answer.error, onRetry: () => void answer.refetch() } : null}
          pagination={false}
          expandable={{ expandedRowKeys: expanded, onExpandedRowsChange: (keys) => setExpanded(keys) }}
          onRow={(row) =>
            canMove
              ? {
                  draggable: true,
                  onDragStart: () => {
                    dragged.current = row.id;
                  },
                  onDragOver: (event) => event.preventDefault(),
                  onDrop: (event) => void drop(event, row),
                }
              : {}
          }
        />
      </Card>
      {drawer && (
        <RecordDrawer
          key={drawer.mode === 'edit' ? `edit:${drawer.row.id}` : `add:${drawer.parentId ?? 'root'}`}
          def={def}
          api={api}
          target={drawer.mode === 'edit' ? { mode: 'edit', row: drawer.row } : { mode: 'add' }}
          // A new node's parent is the row it was added under; moves are made by dragging.
          hiddenFields={new Set(drawer.mode === 'add' ? [tree.parentField] : [])}
          presetValues={drawer.mode === 'add' && drawer.parentId !== null ? { [tree.parentField]: drawer.parentId } : {}}
          onClose={() => setDrawer(null)}
          onSaved={() => {
            if (drawer.mode === 'add' && drawer.parentId !== null) setExpanded((keys) => [...new Set([...keys, drawer.parentId!])]);
            setDrawer(null);
            void refresh();
          }}
        />
      )}
    </div>
  );
}
