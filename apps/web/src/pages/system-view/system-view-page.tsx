/** systemView: the Overview of the caller's scope, live, with today's recognitions by hour and the busiest schools. */
import { Alert, Card, Col, Row, Table } from 'antd';
import { useMemo } from 'react';
import { ReportChart } from '../../reports/report-chart';
import type { ReportChartOption } from '../../reports/chart-option';
import { useT } from '../../lib/i18n';
import { LiveStatus } from '../live/live-status';
import { OverviewFigures } from '../live/overview-figures';
import { useOverview } from '../live/use-overview';

export default function SystemViewPage() {
  const t = useT();
  const overview = useOverview();
  const data = overview.data;
  const hours = useMemo(() => Array.from({ length: 24 }, (_, hour) => t('live.hour', { hour })), [t]);
  const option = useMemo(
    (): ReportChartOption => ({
        tooltip: { trigger: 'axis' },
        legend: { show: false },
        grid: { left: 48, right: 16, top: 24, bottom: 32 },
        xAxis: { type: 'category', data: hours },
        yAxis: { type: 'value', minInterval: 1 },
        series: [{ type: 'bar', name: t('live.recognitionsCount'), data: data?.recognitionsByHour ?? [], itemStyle: { color: '#1677ff' } }],
      }),
    [data, hours, t],
  );

  return (
    // A page of figures has nothing to tab into: the region itself takes focus, so the keyboard can scroll it.
    <div className="page-stack" data-testid="system-view" role="region" aria-label={t('live.figuresTitle')} tabIndex={0}>
      <Card size="small" variant="borderless" extra={<LiveStatus isLive={overview.isLive} at={data?.at} />} title={t('live.figuresTitle')} loading={overview.isPending}>
        {overview.isError ? <Alert type="error" showIcon message={t('live.loadFailed')} /> : data ? <OverviewFigures overview={data} /> : null}
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={14}>
          <Card title={t('live.byHour')} size="small">
            <ReportChart option={option} height={320} />
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <Card title={t('live.topSchools')} size="small">
            <Table
              size="small"
              rowKey="schoolId"
              pagination={false}
              dataSource={data?.topSchools ?? []}
              columns={[
                { title: t('live.school'), dataIndex: 'name', ellipsis: true },
                { title: t('live.recognitionsCount'), dataIndex: 'recognitions', align: 'right', width: 120 },
              ]}
            />
          </Card>
        </Col>
      </Row>
    </div>
  );
}
