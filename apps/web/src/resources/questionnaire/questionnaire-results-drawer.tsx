import { DownloadOutlined } from '@ant-design/icons';
import { QUESTION_TYPE_OPTIONS, QUESTION_TYPE_TEXT, type QuestionnaireResults } from '@campus/contract';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Drawer, Empty, List, Space, Spin, Statistic, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { usePermission } from '../../hooks/use-permission';
import { useWindowWidth } from '../../hooks/use-window-width';
import { questionnaireApi } from '../../lib/api/questionnaire';
import { useLocale, useT, type Locale } from '../../lib/i18n';
import { ReportChart } from '../../reports/report-chart';
import type { ReportChartOption } from '../../reports/chart-option';
import type { ResourceRow } from '../shared/resource-api';


type QuestionResult = QuestionnaireResults['questions'][number];

/** A horizontal bar per option: the option's respondents, longest options wrapped to the axis. */
function optionChart(question: QuestionResult, countLabel: string): ReportChartOption {
  const options = [...question.options].reverse();
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    legend: { show: false },
    grid: { left: 8, right: 40, top: 8, bottom: 8, containLabel: true },
    xAxis: { type: 'value', minInterval: 1 },
    yAxis: { type: 'category', data: options.map((option) => option.text), axisLabel: { width: 180, overflow: 'truncate' } },
    series: [{ type: 'bar', name: countLabel, data: options.map((option) => option.count), barMaxWidth: 28, label: { show: true, position: 'right' }, itemStyle: { color: question.type === 1 ? '#1677ff' : '#722ed1' } }],
  };
}

function QuestionCard({ question, locale }: { question: QuestionResult; locale: Locale }) {
  const t = useT();
  const type = QUESTION_TYPE_OPTIONS.find((option) => option.value === question.type);
  const countLabel = t('questionnaire.count');
  // A new option object redraws the chart: keep it while the results and the language stay.
  const chart = useMemo(() => optionChart(question, countLabel), [question, countLabel]);
  return (
    <Card
      size="small"
      data-testid="questionnaire-question"
      title={
        <Space>
          <span>{`${question.questionNo}. ${question.title}`}</span>
          {type && <Tag color={type.color}>{locale === 'en' ? type.en : type.zh}</Tag>}
        </Space>
      }
      extra={<Typography.Text type="secondary">{t('questionnaire.answered', { n: question.answered })}</Typography.Text>}
    >
      {question.type === QUESTION_TYPE_TEXT ? (
        question.texts.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('questionnaire.noTexts')} />
        ) : (
          <List size="small" dataSource={question.texts} renderItem={(item) => <List.Item>{item}</List.Item>} />
        )
      ) : (
        <ReportChart option={chart} height={Math.max(120, question.options.length * 36 + 24)} />
      )}
    </Card>
  );
}

/** A questionnaire's results: answers counted, a chart per choice question, texts, the link and the export. */
export function QuestionnaireResultsDrawer({ row, frame, onClose }: { row: ResourceRow; frame: string; onClose: () => void }) {
  const locale = useLocale();
  const t = useT();
  const windowWidth = useWindowWidth();
  const { can } = usePermission(frame);
  const id = Number(row.id);
  const results = useQuery({ queryKey: ['questionnaireResults', id], queryFn: () => questionnaireApi.results(id) });
  const link = useQuery({ queryKey: ['questionnaireLink', id], queryFn: () => questionnaireApi.link(id) });
  const address = link.data ? `${window.location.origin}${link.data.path}` : '';

  return (
    <Drawer open title={t('questionnaire.title', { title: String(row.title ?? id) })} size={Math.min(880, windowWidth - 48)} onClose={onClose} destroyOnHidden>
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Space align="start" style={{ width: '100%', justifyContent: 'space-between' }} wrap>
          <Statistic title={t('questionnaire.answers')} value={results.data?.answerCount ?? '-'} />
          {can('export') && (
            <Button icon={<DownloadOutlined />} onClick={() => void questionnaireApi.exportAnswers(id)}>
              {t('questionnaire.export')}
            </Button>
          )}
        </Space>
        <div>
          <Typography.Text type="secondary">{t('questionnaire.link')}</Typography.Text>
          <Typography.Paragraph copyable={address ? { text: address } : false} style={{ marginBottom: 0 }} data-testid="questionnaire-link">
            {address ? <Typography.Link href={address} target="_blank" rel="noreferrer">{address}</Typography.Link> : '…'}
          </Typography.Paragraph>
        </div>
        <Typography.Text type="secondary">{t('questionnaire.scopeHint')}</Typography.Text>
        {results.isPending ? (
          <Spin />
        ) : results.data && results.data.answerCount === 0 ? (
          <Empty description={t('questionnaire.noAnswers')} />
        ) : (
          results.data?.questions.map((question) => <QuestionCard key={question.questionNo} question={question} locale={locale} />)
        )}
      </Space>
    </Drawer>
  );
}
