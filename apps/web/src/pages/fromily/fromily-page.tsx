import { CheckCircleFilled, CloseCircleFilled, ReloadOutlined } from '@ant-design/icons';
import { Button, Descriptions, Divider, Space, Spin, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { API_PATHS, formatBusinessDateTime } from '@campus/contract';
import { PublicPageFrame } from '../../components/public-page-frame';
import { homeApi } from '../../lib/api/home';
import { isRecord } from '../../lib/storage';
import { useLocale, useT } from '../../lib/i18n';

interface HealthProbe {
  answer: unknown;
  latencyMs: number;
  checkedAt: string;
}

async function probeHealth(): Promise<HealthProbe> {
  const started = performance.now();
  const answer = await homeApi.getHealth();
  return { answer, latencyMs: Math.round(performance.now() - started), checkedAt: formatBusinessDateTime(new Date(), { seconds: true }) };
}

/** A health answer is good unless it says otherwise in one of the usual ways. */
function isHealthy(answer: unknown): boolean {
  if (!isRecord(answer)) return answer !== null && answer !== undefined;
  const status = answer.status ?? answer.state;
  return !(typeof status === 'string' && !['ok', 'up', 'healthy', 'pass'].includes(status.toLowerCase())) && answer.ok !== false;
}

function display(value: unknown): string {
  if (value === null || value === undefined) return '—';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** /fromily: the test page — the API's health as it answers now, and what build is running. */
export default function FromilyPage() {
  const t = useT();
  const locale = useLocale();
  const health = useQuery({ queryKey: ['health'], queryFn: probeHealth, retry: false, gcTime: 0 });
  const answerFields = health.data && isRecord(health.data.answer) ? Object.entries(health.data.answer) : [];

  return (
    <PublicPageFrame title={t('fromily.title')} subtitle={t('fromily.subtitle')} width={640}>
      <Space style={{ width: '100%', justifyContent: 'space-between' }} align="center">
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('fromily.health')} <Typography.Text type="secondary" code>{`GET ${API_PATHS.health}`}</Typography.Text>
        </Typography.Title>
        <Button icon={<ReloadOutlined />} onClick={() => void health.refetch()} loading={health.isFetching}>
          {t('fromily.recheck')}
        </Button>
      </Space>
      <div style={{ marginTop: 12 }} data-testid="health-result">
        {health.isPending ? (
          <Spin />
        ) : health.isError ? (
          <Tag icon={<CloseCircleFilled />} color="error">
            {t('fromily.unhealthy')}: {health.error.message}
          </Tag>
        ) : (
          <Descriptions size="small" column={1} bordered styles={{ label: { width: 150 } }}>
            <Descriptions.Item label={t('fromily.health')}>
              {isHealthy(health.data.answer) ? (
                <Tag icon={<CheckCircleFilled />} color="success">
                  {t('fromily.healthy')}
                </Tag>
              ) : (
                <Tag icon={<CloseCircleFilled />} color="error">
                  {t('fromily.unhealthy')}
                </Tag>
              )}
            </Descriptions.Item>
            {answerFields.map(([name, value]) => (
              <Descriptions.Item key={name} label={name}>
                {display(value)}
              </Descriptions.Item>
            ))}
            {!isRecord(health.data.answer) && <Descriptions.Item label="data">{display(health.data.answer)}</Descriptions.Item>}
            <Descriptions.Item label={t('fromily.latency')}>{health.data.latencyMs} ms</Descriptions.Item>
            <Descriptions.Item label={t('fromily.checkedAt')}>{health.data.checkedAt}</Descriptions.Item>
          </Descriptions>
        )}
      </div>
      <Divider />
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t('fromily.build')}
      </Typography.Title>
      <Descriptions size="small" column={1} bordered styles={{ label: { width: 150 } }}>
        <Descriptions.Item label={t('fromily.version')}>{__APP_VERSION__}</Descriptions.Item>
        <Descriptions.Item label={t('fromily.buildTime')}>{formatBusinessDateTime(__BUILD_TIME__, { seconds: true })}</Descriptions.Item>
        <Descriptions.Item label={t('fromily.mode')}>{import.meta.env.MODE}</Descriptions.Item>
        <Descriptions.Item label={t('fromily.locale')}>{locale}</Descriptions.Item>
        <Descriptions.Item label={t('fromily.userAgent')}>
          <Typography.Text style={{ fontSize: 12 }}>{navigator.userAgent}</Typography.Text>
        </Descriptions.Item>
      </Descriptions>
      <div style={{ textAlign: 'center', marginTop: 20 }}>
        <Link to="/login">{t('fromily.toLogin')}</Link>
      </div>
    </PublicPageFrame>
  );
}
