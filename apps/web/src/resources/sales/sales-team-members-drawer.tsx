import { DeleteOutlined } from '@ant-design/icons';
import { SalesTeam, type FieldDef, type ReferenceOption, type SalesTeamMember } from '@campus/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Drawer, InputNumber, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { SubmitButton } from '../../components/submit-button';
import { usePermission } from '../../hooks/use-permission';
import { useWindowWidth } from '../../hooks/use-window-width';
import { salesTeamApi } from '../../lib/api/permission';
import { useT } from '../../lib/i18n';
import { RequestError } from '../../lib/request';
import { showToast } from '../../lib/toast';
import { ReferenceSelect } from '../form/reference-select';
import type { ResourceRow } from '../shared/resource-api';


/** Sales accounts, as the seller picker offers them. */
// The same picker as the team's leader: the company's users of type sales.
const SELLER_FIELD = SalesTeam.fields.leaderId as Extract<FieldDef, { kind: 'reference' }>;

type Member = Pick<SalesTeamMember, 'userId' | 'name' | 'level'> & { loginName?: string };

/** The members of a sales team and their levels; editable with the page's update button. */
export function SalesTeamMembersDrawer({ row, frame, onClose }: { row: ResourceRow; frame: string; onClose: () => void }) {
  const t = useT();
  const windowWidth = useWindowWidth();
  const queryClient = useQueryClient();
  const { can } = usePermission(frame);
  const canEdit = can('update');
  const stored = useQuery({ queryKey: ['salesTeamMembers', row.id], queryFn: () => salesTeamApi.members(row.id) });
  const [edited, setEdited] = useState<Member[] | null>(null);
  const [picked, setPicked] = useState<number | undefined>();
  const [error, setError] = useState<string | null>(null);
  const members: Member[] = edited ?? stored.data ?? [];

  const change = (next: Member[]) => {
    setEdited(next);
    setError(null);
  };
  const addPicked = (userId: number, name: string) => {
    if (members.some((member) => member.userId === userId)) return;
    // A newcomer starts at the lowest level the team has.
    change([...members, { userId, name, level: Math.max(1, ...members.map((member) => member.level)) }]);
    setPicked(undefined);
  };

  const save = async () => {
    try {
      await salesTeamApi.saveMembers(
        row.id,
        members.map(({ userId, level }) => ({ userId, level })),
      );
      showToast('success', t('salesTeam.saved'));
      setEdited(null);
      await Promise.all([stored.refetch(), queryClient.invalidateQueries({ queryKey: ['resource', 'SalesTeam'] })]);
    } catch (failure) {
      // Field errors name members.N.userId, which has no form field here: list them above the table.
      if (failure instanceof RequestError) setError(failure.errors.map((one) => one.message).join('; ') || null);
    }
  };

  return (
    <Drawer
      open
      title={t('salesTeam.title', { team: String(row.name ?? row.id) })}
      size={Math.min(720, windowWidth - 48)}
      onClose={onClose}
      destroyOnHidden
      footer={
        canEdit && (
          <Space style={{ float: 'right' }}>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <SubmitButton type="primary" disabled={edited === null} onClick={save}>
              {t('common.save')}
            </SubmitButton>
          </Space>
        )
      }
    >
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{t('salesTeam.scopeHint')}</Typography.Text>
        {error && <Alert type="error" showIcon message={error} />}
        {canEdit && (
          <Space.Compact style={{ width: '100%' }}>
            <div style={{ flex: 1 }}>
              <ReferenceSelect
                field={SELLER_FIELD}
                value={picked ?? null}
                placeholder={t('salesTeam.add')}
                onChange={(value) => setPicked(typeof value === 'number' ? value : undefined)}
              />
            </div>
            <Button
              disabled={picked === undefined}
              onClick={() => {
                // The picker has just loaded the seller's name into the options cache.
                const loaded = queryClient.getQueriesData<ReferenceOption[]>({ queryKey: ['referenceOptions', 'CompanyUser'] });
                const label = loaded.flatMap(([, options]) => options ?? []).find((option) => option.value === picked)?.label;
                if (picked !== undefined) addPicked(picked, label ?? String(picked));
              }}
            >
              {t('salesTeam.add')}
            </Button>
          </Space.Compact>
        )}
        <Table<Member>
          rowKey="userId"
          size="small"
          loading={stored.isFetching}
          dataSource={members}
          pagination={false}
          locale={{ emptyText: t('salesTeam.empty') }}
          columns={[
            {
              key: 'name',
              title: t('salesTeam.seller'),
              render: (_value, member) => (
                <Space>
                  {member.name}
                  {member.userId === row.leaderId && <Tag color="gold">{t('salesTeam.leader')}</Tag>}
                </Space>
              ),
            },
            {
              key: 'level',
              title: t('salesTeam.level'),
              width: 140,
              render: (_value, member) =>
                canEdit ? (
                  <InputNumber
                    aria-label={t('salesTeam.level')}
                    min={1}
                    max={9}
                    precision={0}
                    value={member.level}
                    onChange={(level) => change(members.map((one) => (one.userId === member.userId ? { ...one, level: level ?? 1 } : one)))}
                  />
                ) : (
                  member.level
                ),
            },
            ...(canEdit
              ? [
                  {
                    key: 'remove',
                    width: 60,
                    render: (_value: unknown, member: Member) => (
                      <Button
                        type="text"
                        danger
                        icon={<DeleteOutlined />}
                        aria-label={t('resource.delete')}
                        onClick={() => change(members.filter((one) => one.userId !== member.userId))}
                      />
                    ),
                  },
                ]
              : []),
          ]}
        />
      </Space>
    </Drawer>
  );
}
