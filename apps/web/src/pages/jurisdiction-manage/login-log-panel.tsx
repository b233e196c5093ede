import { DEFAULT_PAGE_SIZE, LOGIN_OUTCOMES, LOGIN_OUTCOME_LABELS, type LoginLogRow, type LoginLogSearch, formatBusinessDateTime } from '@campus/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Card, Checkbox, DatePicker, Form, Input, Select, Space, Table, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useLabelText } from '../../hooks/use-label-text';
import { permissionApi } from '../../lib/api/permission';
import { TEXT } from './texts';

interface Filters {
  loginName?: string;
  ip?: string;
  outcome?: LoginLogSearch['outcome'];
  isFailure?: boolean;
  range?: [Dayjs | null, Dayjs | null] | null;
}

function toSearch(filters: Filters): Partial<LoginLogSearch> {
  const [from, to] = filters.range ?? [];
  return {
    loginName: filters.loginName?.trim() || undefined,
    ip: filters.ip?.trim() || undefined,
    outcome: filters.outcome,
    isFailure: filters.isFailure || undefined,
    createdAtFrom: from ? from.startOf('day').toISOString() : undefined,
    createdAtTo: to ? to.endOf('day').toISOString() : undefined,
  };
}

/** The login log: every attempt, newest first; failures red, lockouts and address limits orange. */
export function LoginLogPanel() {
  const text = useLabelText();
  const [form] = Form.useForm<Filters>();
  const [search, setSearch] = useState<Partial<LoginLogSearch>>({});
  const [paging, setPaging] = useState({ pageIndex: 1, pageSize: DEFAULT_PAGE_SIZE });
  const request = { ...search, ...paging };
  const log = useQuery({ queryKey: ['loginLog', request], queryFn: () => permissionApi.searchLoginLog(request), placeholderData: keepPreviousData });

  const apply = (filters: Filters) => {
    setSearch(toSearch(filters));
    setPaging((current) => ({ ...current, pageIndex: 1 }));
  };

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Card size="small">
        <Form<Filters> form={form} name="login-log-filters" layout="inline" onFinish={apply} style={{ rowGap: 12 }}>
          <Form.Item name="loginName" label={text(TEXT.account)}>
            <Input allowClear style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="ip" label={text(TEXT.address)}>
            <Input allowClear style={{ width: 150 }} />
          </Form.Item>
          <Form.Item name="outcome" label={text(TEXT.outcome)}>
            <Select allowClear style={{ width: 160 }} options={LOGIN_OUTCOMES.map((outcome) => ({ value: outcome, label: text(LOGIN_OUTCOME_LABELS[outcome]) }))} />
          </Form.Item>
          <Form.Item name="range" label={text(TEXT.time)}>
            <DatePicker.RangePicker allowEmpty={[true, true]} />
          </Form.Item>
          <Form.Item name="isFailure" valuePropName="checked">
            <Checkbox>{text(TEXT.failuresOnly)}</Checkbox>
          </Form.Item>
          <Form.Item>
            <Space>
              <Button type="primary" htmlType="submit">
                {text(TEXT.search)}
              </Button>
              <Button
                onClick={() => {
                  form.resetFields();
                  apply({});
                }}
              >
                {text(TEXT.resetFilters)}
              </Button>
            </Space>
          </Form.Item>
        </Form>
      </Card>
      <Card size="small">
        <Table<LoginLogRow>
          rowKey="id"
          size="middle"
          loading={log.isFetching}
          dataSource={log.data?.items ?? []}
          scroll={{ x: 'max-content' }}
          onChange={(pagination) => setPaging({ pageIndex: pagination.current ?? 1, pageSize: pagination.pageSize ?? DEFAULT_PAGE_SIZE })}
          pagination={{
            current: paging.pageIndex,
            pageSize: paging.pageSize,
            total: log.data?.total ?? 0,
            showSizeChanger: true,
            showTotal: (total) => text(TEXT.total, { total: log.data?.totalIsCapped ? `${total}+` : total }),
          }}
          columns={[
            { key: 'createdAt', title: text(TEXT.time), width: 170, render: (_value, row) => formatBusinessDateTime(row.createdAt, { seconds: true }) },
            { key: 'loginName', title: text(TEXT.account), width: 160, dataIndex: 'loginName' },
            {
              key: 'outcome',
              title: text(TEXT.outcome),
              width: 140,
              render: (_value, row) => <Tag color={LOGIN_OUTCOME_LABELS[row.outcome].color}>{text(LOGIN_OUTCOME_LABELS[row.outcome])}</Tag>,
            },
            { key: 'ip', title: text(TEXT.address), width: 150, dataIndex: 'ip' },
            {
              key: 'userAgent',
              title: text(TEXT.userAgent),
              ellipsis: true,
              render: (_value, row) => (
                <Typography.Text type="secondary" title={row.userAgent ?? ''}>
                  {row.userAgent ?? ''}
                </Typography.Text>
              ),
            },
          ]}
        />
      </Card>
    </Space>
  );
}
