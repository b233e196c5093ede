/**
 * personSearch: one box over students, parents, teachers and pick-up persons (GET /api/Person/Search).
 * Hits are grouped by family; opening one reads the row through its family's page (`?view=`) and shows
 * that family's record drawer here, so the page's buttons and scope govern it as on its own page.
 */
import { RESOURCES, PERSON_FAMILIES, type PersonFamily, type PersonGroup, type PersonHit } from '@campus/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Input, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useDebouncedValue } from '../../hooks/use-debounced-value';
import { personApi } from '../../lib/api/person';
import { useLocale, useT, type MessageKey } from '../../lib/i18n';
import { labelText } from '../../resources/shared/labels';
import { RecordDrawer } from '../../resources/record/record-drawer';
import { resourceApi, type ResourceRow } from '../../resources/shared/resource-api';

const RESULTS_PER_FAMILY = 10;
const NO_HIDDEN_FIELDS: ReadonlySet<string> = new Set();
const NO_PRESETS = {};

const MATCH_KEYS: Record<PersonHit['matched'], MessageKey> = {
  name: 'personSearch.matchedName',
  phoneNum: 'personSearch.matchedPhone',
  cardNo: 'personSearch.matchedCard',
  studentNo: 'personSearch.matchedStudentNo',
};

/** The page a family's rows are opened through: the first view of its declaration. */
const frameOf = (family: PersonFamily) => RESOURCES[family]!.views[0]!.frame;

interface OpenRecord {
  family: PersonFamily;
  row: ResourceRow;
}

export default function PersonSearchPage() {
  const t = useT();
  const locale = useLocale();
  const [typed, setTyped] = useState('');
  const q = useDebouncedValue(typed.trim(), 300);
  const [open, setOpen] = useState<OpenRecord | null>(null);
  const [opening, setOpening] = useState<string | null>(null);
  const result = useQuery({ queryKey: ['personSearch', q], queryFn: () => personApi.search(q, RESULTS_PER_FAMILY), enabled: q.length > 0 });

  const openHit = async (family: PersonFamily, hit: PersonHit) => {
    setOpening(`${family}:${hit.id}`);
    try {
      setOpen({ family, row: await resourceApi(family, frameOf(family)).get(hit.id) });
    } finally {
      setOpening(null);
    }
  };

  const columnsOf = (group: PersonGroup): TableColumnsType<PersonHit> => [
    { key: 'name', dataIndex: 'name', title: t('personSearch.name'), width: 160 },
    { key: 'schoolName', dataIndex: 'schoolName', title: t('personSearch.school'), width: 200 },
    { key: 'phoneNum', dataIndex: 'phoneNum', title: t('personSearch.phone'), width: 140 },
    { key: 'cardNo', dataIndex: 'cardNo', title: t('personSearch.cardNo'), width: 140 },
    { key: 'studentNo', dataIndex: 'studentNo', title: t('personSearch.studentNo'), width: 140 },
    { key: 'matched', dataIndex: 'matched', title: t('personSearch.matched'), width: 110, render: (matched: PersonHit['matched']) => <Tag>{t(MATCH_KEYS[matched])}</Tag> },
    {
      key: 'open',
      title: t('resource.actions'),
      width: 90,
      render: (_: unknown, hit: PersonHit) => (
        <Button type="link" size="small" loading={opening === `${group.family}:${hit.id}`} onClick={() => void openHit(group.family, hit)}>
          {t('personSearch.open')}
        </Button>
      ),
    },
  ];

  const groups = useMemo(() => (result.data?.groups ?? []).slice().sort((a, b) => PERSON_FAMILIES.indexOf(a.family) - PERSON_FAMILIES.indexOf(b.family)), [result.data]);
  const isEmpty = q.length > 0 && result.isSuccess && groups.every((group) => group.items.length === 0);
  const openDef = open ? RESOURCES[open.family]! : null;

  return (
    <div className="page-stack">
      <Card size="small">
        <Input.Search
          allowClear
          autoFocus
          enterButton
          value={typed}
          maxLength={50}
          loading={result.isFetching}
          placeholder={t('personSearch.placeholder')}
          onChange={(event) => setTyped(event.target.value)}
          onSearch={(value) => setTyped(value)}
          data-testid="person-search-box"
        />
        <Typography.Text type="secondary">{t('personSearch.hint')}</Typography.Text>
      </Card>
      {isEmpty && <Empty description={t('personSearch.none')} />}
      {groups
        .filter((group) => group.items.length > 0)
        .map((group) => (
          <Card
            key={group.family}
            size="small"
            data-testid={`person-group-${group.family}`}
            title={
              <Space>
                {labelText(RESOURCES[group.family]!.label, locale)}
                <Tag>{group.hasMore ? t('personSearch.countMore', { count: group.items.length }) : group.items.length}</Tag>
              </Space>
            }
          >
            <Table<PersonHit> rowKey="id" size="small" pagination={false} dataSource={group.items} columns={columnsOf(group)} scroll={{ x: 'max-content' }} />
          </Card>
        ))}
      {open && openDef && (
        <RecordDrawer
          key={`${open.family}:${open.row.id}`}
          def={openDef}
          api={resourceApi(open.family, frameOf(open.family))}
          target={{ mode: 'edit', row: open.row }}
          hiddenFields={NO_HIDDEN_FIELDS}
          presetValues={NO_PRESETS}
          onClose={() => setOpen(null)}
          onSaved={() => {
            setOpen(null);
            void result.refetch();
          }}
        />
      )}
    </div>
  );
}
