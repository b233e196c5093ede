/**
 * jsc, the school cockpit: one school's day at a glance — arrived, left, absent, late and left early
 * against its school days, fever alerts, devices offline and the last recognitions with snapshots.
 */
import { RECOGNITION_DIRECTION_OPTIONS, RECOGNITION_PERSON_KIND_OPTIONS, formatBusinessDateTime, type FieldDef } from '@campus/contract';
import { Alert, Card, Col, Empty, Image, List, Row, Space, Statistic, Tag, Typography } from 'antd';
import { useState } from 'react';
import { formatCount, useLocale, useT } from '../../lib/i18n';
import { ReferenceSelect } from '../../resources/form/reference-select';
import { useCockpit } from './use-cockpit';
import './jsc-page.css';

const SCHOOL_FIELD = { kind: 'reference', family: 'School', display: 'schoolName', label: { zh: '学校', en: 'School' } } as FieldDef & { kind: 'reference' };

export default function JscPage() {
  const t = useT();
  const locale = useLocale();
  const [schoolId, setSchoolId] = useState<number | undefined>();
  const { data, isLoading } = useCockpit(schoolId);
  const optionText = (options: readonly { value: number; zh: string; en: string }[], value: number) => {
    const option = options.find((o) => o.value === value);
    return option ? (locale === 'en' ? option.en : option.zh) : String(value);
  };
  const figures = data
    ? [
        { key: 'enrolled', value: data.enrolled, color: undefined },
        { key: 'arrived', value: data.arrived, color: '#52c41a' },
        { key: 'left', value: data.left, color: '#1677ff' },
        { key: 'absent', value: data.absent, color: '#f5222d' },
        { key: 'late', value: data.late, color: '#faad14' },
        { key: 'leftEarly', value: data.leftEarly, color: '#722ed1' },
      ]
    : [];

  return (
    <div className="page-stack jsc-page">
      <Card size="small">
        <Space wrap className="jsc-head">
          <label htmlFor="jsc-school">
            <Typography.Text strong>{t('jsc.school')}</Typography.Text>
          </label>
          <div className="jsc-school">
            <ReferenceSelect id="jsc-school" field={SCHOOL_FIELD} value={schoolId ?? data?.school?.id} currentLabel={data?.school?.name} onChange={(value) => setSchoolId(value === undefined || value === null ? undefined : Number(value))} />
          </div>
          {data && (
            <Typography.Text type="secondary" data-testid="jsc-day">
              {data.day} · {data.isSchoolDay ? <Tag color="green">{t('jsc.schoolDay')}</Tag> : <Tag>{t('jsc.noSchool')}</Tag>}
            </Typography.Text>
          )}
        </Space>
      </Card>
      {data && !data.school && <Empty description={t('jsc.noSchoolInScope')} />}
      {data?.school && (
        <>
          {!data.rolledUp && <Alert type="info" showIcon message={t('jsc.notRolledUp')} />}
          <Row gutter={[16, 16]} data-testid="jsc-figures">
            {figures.map((figure) => (
              <Col key={figure.key} xs={12} md={8} xl={4}>
                <Card size="small">
                  <Statistic title={t(`jsc.${figure.key}` as 'jsc.arrived')} value={formatCount(figure.value, locale)} valueStyle={figure.color ? { color: figure.color } : undefined} />
                </Card>
              </Col>
            ))}
          </Row>
          <Row gutter={[16, 16]}>
            <Col xs={24} xl={14}>
              <Card size="small" title={t('jsc.recent')} loading={isLoading}>
                <List
                  dataSource={data.recent}
                  locale={{ emptyText: t('jsc.none') }}
                  renderItem={(row) => (
                    <List.Item key={row.id}>
                      <List.Item.Meta
                        avatar={
                          row.snapshot ? (
                            // The alt names the picture and the button that opens its preview (antd takes it for both).
                            <Image src={row.snapshot} alt={t('jsc.snapshotOf', { name: row.personName ?? t('jsc.unknownPerson') })} width={48} height={48} style={{ objectFit: 'cover' }} />
                          ) : (
                            <div className="jsc-no-photo" />
                          )
                        }
                        title={
                          <Space wrap>
                            <span>{row.personName ?? t('jsc.unknownPerson')}</span>
                            <Tag>{optionText(RECOGNITION_PERSON_KIND_OPTIONS, row.personKind)}</Tag>
                            <Tag color={row.direction === 1 ? 'green' : 'orange'}>{optionText(RECOGNITION_DIRECTION_OPTIONS, row.direction)}</Tag>
                            {!row.success && <Tag color="red">{t('jsc.failed')}</Tag>}
                          </Space>
                        }
                        description={formatBusinessDateTime(row.recognizedAt, { seconds: true })}
                      />
                    </List.Item>
                  )}
                />
              </Card>
            </Col>
            <Col xs={24} xl={10}>
              <Space direction="vertical" className="jsc-side">
                <Card size="small" title={t('jsc.fevers', { count: formatCount(data.fevers.length, locale) })}>
                  <List
                    size="small"
                    dataSource={data.fevers}
                    locale={{ emptyText: t('jsc.none') }}
                    renderItem={(row) => (
                      <List.Item key={row.id}>
                        <span>{row.personName ?? t('jsc.unknownPerson')}</span>
                        <Tag color="red">{row.temperature.toFixed(1)} ℃</Tag>
                        <Typography.Text type="secondary">{formatBusinessDateTime(row.recognizedAt)}</Typography.Text>
                      </List.Item>
                    )}
                  />
                </Card>
                <Card size="small" title={t('jsc.devices', { offline: formatCount(data.devices.offline, locale), total: formatCount(data.devices.total, locale) })}>
                  <List
                    size="small"
                    dataSource={data.offlineDevices}
                    locale={{ emptyText: t('jsc.allOnline') }}
                    renderItem={(row) => (
                      <List.Item key={row.id}>
                        <span>{row.serialNumber ?? `#${row.id}`}</span>
                        <Typography.Text type="secondary">{row.lastSeenAt ? t('jsc.lastSeen', { at: formatBusinessDateTime(row.lastSeenAt) }) : t('jsc.neverSeen')}</Typography.Text>
                      </List.Item>
                    )}
                  />
                </Card>
                <Card size="small">
                  <Space size="large" wrap>
                    <Statistic title={t('jsc.recognitions')} value={formatCount(data.recognitions, locale)} />
                    <Statistic title={t('jsc.failedRecognitions')} value={formatCount(data.failed, locale)} />
                  </Space>
                </Card>
              </Space>
            </Col>
          </Row>
        </>
      )}
    </div>
  );
}
