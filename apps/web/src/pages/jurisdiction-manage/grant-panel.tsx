import { USER_TYPE_LABELS, type GrantTree } from '@campus/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Empty, Space, Tag, Tree, Typography, type TreeDataNode } from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { SubmitButton } from '../../components/submit-button';
import { permissionApi } from '../../lib/api/permission';
import { localTitle, useLocale, useT } from '../../lib/i18n';
import { showToast } from '../../lib/toast';
import {
  BUTTON_LABELS,
  buttonKey,
  checkStateOf,
  checkedLeavesOf,
  frameKey,
  grantFramesOf,
  groupKey,
  leavesByNode,
  lockedLeavesOf,
  normaliseLeaves,
  viewKey,
} from './grant-tree';
import { SubjectPicker, subjectKey, subjectQuery, type PickedSubject } from './subject-picker';

/** The grant of a user type or a user as a checkable tree; save replaces it, reset drops a user's own. */
export function GrantPanel({ isCompany }: { isCompany: boolean }) {
  const t = useT();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const [subject, setSubject] = useState<PickedSubject | null>(null);
  const key = subjectKey(subject);
  const grant = useQuery({
    queryKey: ['grant', key],
    queryFn: () => permissionApi.getGrant(subjectQuery(subject!)),
    enabled: subject !== null,
  });

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Card size="small">
        <SubjectPicker value={subject} onChange={setSubject} allowTypes={isCompany} />
      </Card>
      {subject === null ? (
        <Card>
          <Empty description={t('jurisdiction.pickFirst')} />
        </Card>
      ) : grant.data ? (
        <GrantEditor
          // A new subject (or a saved grant) starts the editor afresh from the stored tree.
          key={`${key}:${grant.dataUpdatedAt}`}
          tree={grant.data}
          isCompany={isCompany}
          onSaved={(tree) => queryClient.setQueryData(['grant', key], tree)}
          onReset={() => {
            const userId = subject.kind === 'user' ? subject.account.id : 0;
            modal.confirm({
              title: t('jurisdiction.reset'),
              content: t('jurisdiction.resetConfirm', { user: subject.kind === 'user' ? subject.account.name : '' }),
              onOk: async () => {
                queryClient.setQueryData(['grant', key], await permissionApi.resetUserGrant(userId));
                showToast('success', t('jurisdiction.resetDone'));
              },
            });
          }}
        />
      ) : (
        <Card loading={grant.isFetching} />
      )}
    </Space>
  );
}

interface GrantEditorProps {
  tree: GrantTree;
  isCompany: boolean;
  onSaved: (tree: GrantTree) => void;
  onReset: () => void;
}

function GrantEditor({ tree, isCompany, onSaved, onReset }: GrantEditorProps) {
  const t = useT();
  const locale = useLocale();
  const stored = useMemo(() => checkedLeavesOf(tree), [tree]);
  const locked = useMemo(() => lockedLeavesOf(tree), [tree]);
  const byNode = useMemo(() => leavesByNode(tree), [tree]);
  const [checked, setChecked] = useState<Set<string>>(stored);
  // Groups holding a granted frame start open; the rest show their count until opened.
  const [expanded, setExpanded] = useState<string[]>(() =>
    tree.groups.filter((group) => group.frames.some((frame) => frame.granted && !frame.isAlwaysAllowed)).map((group) => groupKey(group.id)),
  );
  const isDirty = checked.size !== stored.size || [...checked].some((leaf) => !stored.has(leaf));
  const frameCount = new Set(grantFramesOf(checked).map((frame) => frame.frameId)).size;

  const countOf = (nodeKey: string) => {
    const leaves = byNode.get(nodeKey) ?? [];
    const state = checkStateOf(leaves, checked);
    const views = leaves.filter((leaf) => leaf.startsWith('v:'));
    return { state, held: views.filter((leaf) => checked.has(leaf)).length, all: views.length };
  };

  const treeData: TreeDataNode[] = useMemo(
    () =>
      tree.groups.map((group) => ({
        key: groupKey(group.id),
        title: localTitle({ zh: group.title, en: group.titleEn }, locale),
        children: group.frames.map((frame) => ({
          // An always-allowed frame is one locked leaf, drawn checked (antd leaves disabled children out of a parent's state).
          key: frame.isAlwaysAllowed ? viewKey(frame.fixedId) : frameKey(frame.fixedId),
          isLeaf: frame.isAlwaysAllowed,
          title: (
            <Space size={6}>
              <span>{localTitle({ zh: frame.title, en: frame.titleEn }, locale)}</span>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {frame.index}
              </Typography.Text>
              {frame.isAlwaysAllowed && <Tag>{t('jurisdiction.alwaysAllowed')}</Tag>}
            </Space>
          ),
          disableCheckbox: frame.isAlwaysAllowed || !frame.grantable,
          children: frame.isAlwaysAllowed
            ? undefined
            : [
            { key: viewKey(frame.fixedId), title: t('jurisdiction.view'), disableCheckbox: locked.has(viewKey(frame.fixedId)), isLeaf: true },
            ...frame.buttons.map((button) => ({
              key: buttonKey(frame.fixedId, button.value),
              title: t(BUTTON_LABELS[button.value]),
              disableCheckbox: locked.has(buttonKey(frame.fixedId, button.value)),
              isLeaf: true,
              })),
            ],
        })),
      })),
    [tree, locale, locked, t],
  );

  const save = async () => {
    // Leaves the caller may not grant are left out: for a child they would be cut to its agent's grant anyway.
    const frames = grantFramesOf([...checked].filter((leaf) => !locked.has(leaf)));
    const subject = tree.user ? { userId: tree.user.id } : { userType: tree.userType };
    onSaved(await permissionApi.saveGrant(subject, frames));
    showToast('success', t('jurisdiction.saved'));
  };

  const typeName = localTitle(USER_TYPE_LABELS[tree.userType], locale);
  return (
    <Card
      size="small"
      title={
        <Space wrap>
          <span>{tree.user ? `${tree.user.name} (${tree.user.loginName})` : typeName}</span>
          {tree.user && <Tag>{typeName}</Tag>}
          {tree.user && (tree.isOverride ? <Tag color="blue">{t('jurisdiction.ownGrant')}</Tag> : <Tag>{t('jurisdiction.typeGrant')}</Tag>)}
          <Typography.Text type="secondary">{t('jurisdiction.summary', { frames: frameCount })}</Typography.Text>
          {isDirty && <Tag color="orange">{t('jurisdiction.unsaved')}</Tag>}
        </Space>
      }
      extra={
        <Space wrap>
          <Button size="small" onClick={() => setExpanded(tree.groups.flatMap((group) => [groupKey(group.id), ...group.frames.map((frame) => frameKey(frame.fixedId))]))}>
            {t('jurisdiction.expandAll')}
          </Button>
          <Button size="small" onClick={() => setExpanded([])}>
            {t('jurisdiction.collapseAll')}
          </Button>
          <Button size="small" onClick={() => setChecked(new Set([...checked].filter((leaf) => locked.has(leaf))))}>
            {t('jurisdiction.clearAll')}
          </Button>
          {tree.user && tree.isOverride && (
            <Button size="small" onClick={onReset}>
              {t('jurisdiction.reset')}
            </Button>
          )}
          <SubmitButton type="primary" size="small" disabled={!isDirty} onClick={save}>
            {t('jurisdiction.save')}
          </SubmitButton>
        </Space>
      }
    >
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        message={
          !isCompany
            ? t('jurisdiction.agentHelp')
            : tree.user
              ? `${t(tree.isOverride ? 'jurisdiction.ownGrantHelp' : 'jurisdiction.typeGrantHelp', { type: typeName })}${tree.userType === 'child' ? ` ${t('jurisdiction.childHelp')}` : ''}`
              : t('jurisdiction.typeHelp')
        }
      />
      <Tree
        checkable
        blockNode
        // Not virtual: every frame is in the page, so the browser's find and the tests reach it.
        virtual={false}
        treeData={treeData}
        expandedKeys={expanded}
        onExpand={(keys) => setExpanded(keys.map(String))}
        checkedKeys={[...checked]}
        onCheck={(keys) => {
          const list = Array.isArray(keys) ? keys : keys.checked;
          setChecked((previous) => normaliseLeaves(previous, list.map(String), locked));
        }}
        titleRender={(node) => {
          const nodeKey = String(node.key);
          // data-grant-node names the node (g:group, f:frame, v:/b: leaves) for tests and tools.
          if (!nodeKey.startsWith('g:')) return <span data-grant-node={nodeKey}>{node.title as ReactNode}</span>;
          const { held, all } = countOf(nodeKey);
          return (
            <Space size={6} data-grant-node={nodeKey}>
              <strong>{node.title as ReactNode}</strong>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>{`${held}/${all}`}</Typography.Text>
            </Space>
          );
        }}
      />
    </Card>
  );
}
