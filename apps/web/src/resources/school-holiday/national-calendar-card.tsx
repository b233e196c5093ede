/**
 * The national calendar beside the school's own days (holidayManage): China's public holidays and the
 * weekends worked in their place, read-only, from GET /api/SchoolHoliday/NationalCalendar.
 */
import { NATIONAL_CALENDAR_FIRST_YEAR, NATIONAL_CALENDAR_PATH, type NationalCalendar, type NationalDay } from '@campus/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Select, Table, Tag, type TableColumnsType } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { http } from '../../lib/request';
import { businessNow } from '../shared/field-values';
import { useLocale, useT } from '../../lib/i18n';

const fetchCalendar = (year: number) => http.get<NationalCalendar>(NATIONAL_CALENDAR_PATH, { year });

export function NationalCalendarCard() {
  const t = useT();
  const locale = useLocale();
  const thisYear = businessNow().year();
  const [year, setYear] = useState(thisYear);
  const calendar = useQuery({ queryKey: ['nationalCalendar', year], queryFn: () => fetchCalendar(year) });
  const years = Array.from({ length: thisYear + 2 - NATIONAL_CALENDAR_FIRST_YEAR }, (_, i) => thisYear + 1 - i);

  const columns: TableColumnsType<NationalDay> = [
    { key: 'date', dataIndex: 'date', title: t('holiday.date'), width: 120 },
    { key: 'weekday', title: t('holiday.weekday'), width: 100, render: (_: unknown, day: NationalDay) => dayjs(day.date).locale(locale === 'en' ? 'en' : 'zh-cn').format('dddd') },
    { key: 'name', title: t('holiday.name'), width: 140, render: (_: unknown, day: NationalDay) => day.name[locale === 'en' ? 'en' : 'zh'] },
    {
      key: 'kind',
      dataIndex: 'kind',
      title: t('holiday.kind'),
      width: 130,
      render: (kind: NationalDay['kind']) => (kind === 'holiday' ? <Tag color="green">{t('holiday.publicHoliday')}</Tag> : <Tag color="orange">{t('holiday.workedWeekend')}</Tag>),
    },
  ];

  return (
    <Card
      size="small"
      title={t('holiday.nationalCalendar')}
      extra={<Select size="small" value={year} onChange={setYear} options={years.map((value) => ({ value, label: String(value) }))} style={{ width: 100 }} aria-label={t('holiday.year')} data-testid="national-calendar-year" />}
    >
      {calendar.data && !calendar.data.isKnown && <Alert type="info" showIcon message={t('holiday.yearUnknown', { year })} />}
      <Table<NationalDay> rowKey="date" size="small" loading={calendar.isLoading} dataSource={calendar.data?.days ?? []} columns={columns} pagination={{ pageSize: 10, hideOnSinglePage: true }} />
    </Card>
  );
}
