/** The operations cell: edit, workflow transitions, declared actions, extra actions of an override, history, delete. */
import { DownOutlined } from '@ant-design/icons';
import { Button, Dropdown, Space } from 'antd';
import type { Locale, Translate } from '../../lib/i18n';
import { labelText } from '../shared/labels';
import type { RowActionSpec } from '../shared/permissions';
import type { ResourceRow } from '../shared/resource-api';
import type { ExtraRowAction } from '../resource-overrides';

/** More buttons than this fold the rest into a "More" menu, so the column keeps a sane width. */
const MAX_INLINE_ACTIONS = 3;

export type RowActionItem = { spec: RowActionSpec } | { extra: ExtraRowAction };

interface RowActionsProps {
  row: ResourceRow;
  items: readonly RowActionItem[];
  t: Translate;
  locale: Locale;
  onRun: (item: RowActionItem, row: ResourceRow) => void;
}

function itemKey(item: RowActionItem): string {
  if ('extra' in item) return `extra:${item.extra.key}`;
  if (item.spec.kind === 'transition') return `transition:${item.spec.transition.verb}`;
  return item.spec.kind === 'action' ? `action:${item.spec.action.verb}` : item.spec.kind;
}

const FIXED_LABELS = { edit: 'resource.edit', delete: 'resource.delete', history: 'workflow.history' } as const;

function itemLabel(item: RowActionItem, t: Translate, locale: Locale): string {
  if ('extra' in item) return t(item.extra.label);
  if (item.spec.kind === 'action') return labelText(item.spec.action.label, locale);
  if (item.spec.kind === 'transition') return labelText(item.spec.transition.label, locale);
  return t(FIXED_LABELS[item.spec.kind]);
}

/** Delete and transitions declared `danger` (close, cancel, reject) are red. */
const isDanger = (item: RowActionItem) => 'spec' in item && (item.spec.kind === 'delete' || (item.spec.kind === 'transition' && item.spec.transition.danger === true));

/** Approximate width of the operations column for `count` buttons. */
export function rowActionsWidth(count: number, locale: Locale): number {
  // Folded rows show MAX_INLINE_ACTIONS - 1 buttons plus "More".
  const shown = Math.min(count, MAX_INLINE_ACTIONS);
  return Math.max(80, shown * (locale === 'en' ? 72 : 56) + 16);
}

export function RowActions({ row, items, t, locale, onRun }: RowActionsProps) {
  const folds = items.length > MAX_INLINE_ACTIONS;
  const inline = folds ? items.slice(0, MAX_INLINE_ACTIONS - 1) : items;
  const folded = folds ? items.slice(MAX_INLINE_ACTIONS - 1) : [];
  return (
    <Space size={0} wrap={false}>
      {inline.map((item) => (
        <Button key={itemKey(item)} type="link" size="small" danger={isDanger(item)} onClick={() => onRun(item, row)}>
          {itemLabel(item, t, locale)}
        </Button>
      ))}
      {folded.length > 0 && (
        <Dropdown
          menu={{
            items: folded.map((item) => ({ key: itemKey(item), label: itemLabel(item, t, locale), danger: isDanger(item) })),
            onClick: ({ key }) => {
              const item = folded.find((candidate) => itemKey(candidate) === key);
              if (item) onRun(item, row);
            },
          }}
        >
          <Button type="link" size="small" icon={<DownOutlined />} iconPlacement="end">
            {t('resource.more')}
          </Button>
        </Dropdown>
      )}
    </Space>
  );
}
