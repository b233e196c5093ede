/** A workflow row's state history as a timeline: who, when, from → to (state labels and colours), remark. */
import type { ResourceDef, StateHistoryEntry, StateValue } from '@campus/contract';
import { useQuery } from '@tanstack/react-query';
import { Divider, Empty, Skeleton, Space, Tag, Timeline, Typography } from 'antd';
import { useLocale, useT, type Locale } from '../../lib/i18n';
import { formatDateTime } from '../shared/field-values';
import { enumOptionOf, labelText } from '../shared/labels';
import type { ResourceApi } from '../shared/resource-api';

interface StateTimelineProps {
  def: ResourceDef;
  api: ResourceApi;
  rowId: number;
}

function StateTag({ def, value, locale }: { def: ResourceDef; value: StateValue; locale: Locale }) {
  const field = def.workflow ? def.fields[def.workflow.field] : undefined;
  const option = field ? enumOptionOf(field, value) : undefined;
  return <Tag color={option?.color}>{option ? labelText(option, locale) : String(value)}</Tag>;
}

/** The label of the transition that made a step, or its verb when the declaration no longer has it. */
function verbLabel(def: ResourceDef, verb: string, locale: Locale): string {
  // A step the platform made itself (a terminal's acknowledgement) is named by its system transition.
  const transition = [...(def.workflow?.transitions ?? []), ...(def.workflow?.systemTransitions ?? [])].find((candidate) => candidate.verb === verb);
  return transition ? labelText(transition.label, locale) : verb;
}

/** Query key of a row's history: under the family's key, so a refresh after a transition reloads it. */
export const historyQueryKey = (family: string, rowId: number) => ['resource', family, 'history', rowId] as const;

export function StateTimeline({ def, api, rowId }: StateTimelineProps) {
  const t = useT();
  const locale = useLocale();
  const history = useQuery({ queryKey: historyQueryKey(def.name, rowId), queryFn: () => api.history(rowId) });
  if (history.isPending) return <Skeleton active paragraph={{ rows: 3 }} />;
  const entries: StateHistoryEntry[] = history.data ?? [];
  if (entries.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('workflow.noHistory')} />;
  return (
    <Timeline
      className="state-timeline"
      items={entries.map((entry, index) => ({
        key: index,
        content: (
          <Space orientation="vertical" size={2}>
            <Space size={4} wrap>
              <Typography.Text strong>{verbLabel(def, entry.verb, locale)}</Typography.Text>
              {entry.from !== null && <StateTag def={def} value={entry.from} locale={locale} />}
              {entry.from !== null && <span aria-hidden>→</span>}
              <StateTag def={def} value={entry.to} locale={locale} />
            </Space>
            <Typography.Text type="secondary">
              {entry.userId === null ? t('workflow.system') : (entry.userName ?? t('workflow.unknownUser'))} · {formatDateTime(entry.at)}
            </Typography.Text>
            {entry.remark && <Typography.Paragraph style={{ marginBottom: 0 }}>{entry.remark}</Typography.Paragraph>}
          </Space>
        ),
      }))}
    />
  );
}

/** The timeline under a titled divider, as a section of the record drawer. */
export function StateHistorySection(props: StateTimelineProps) {
  const t = useT();
  return (
    <section aria-label={t('workflow.history')}>
      <Divider titlePlacement="start">{t('workflow.history')}</Divider>
      <StateTimeline {...props} />
    </section>
  );
}
