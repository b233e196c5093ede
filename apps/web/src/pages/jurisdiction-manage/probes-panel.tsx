import { CONFIGURABLE_PROBE_NAMES, USER_TYPE_LABELS, type ConfigurableProbes, type ProbeSettings } from '@campus/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Empty, Radio, Space, Switch, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { SubmitButton } from '../../components/submit-button';
import { permissionApi } from '../../lib/api/permission';
import { showToast } from '../../lib/toast';
import { SubjectPicker, subjectKey, subjectQuery, type PickedSubject } from './subject-picker';
import { PROBE_LABELS } from './texts';
import { localTitle, useLocale, useT } from '../../lib/i18n';

type ProbeName = keyof ConfigurableProbes;
/** A user's choice per probe: its own value, or undefined = follow its type. */
type UserChoices = Partial<Record<ProbeName, boolean>>;

/** Visibility probes of a user type (switches) or of one user (follow type / on / off). */
export function ProbesPanel() {
  const t = useT();
  const [subject, setSubject] = useState<PickedSubject | null>(null);
  const key = subjectKey(subject);
  const settings = useQuery({ queryKey: ['probes', key], queryFn: () => permissionApi.getProbes(subjectQuery(subject!)), enabled: subject !== null });
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Card size="small">
        <SubjectPicker value={subject} onChange={setSubject} allowTypes />
      </Card>
      {subject === null ? (
        <Card>
          <Empty description={t('jurisdiction.pickFirst')} />
        </Card>
      ) : settings.data ? (
        <ProbesEditor key={`${key}:${settings.dataUpdatedAt}`} subject={subject} settings={settings.data} onSaved={() => void settings.refetch()} />
      ) : (
        <Card loading />
      )}
    </Space>
  );
}

function ProbesEditor({ subject, settings, onSaved }: { subject: PickedSubject; settings: ProbeSettings; onSaved: () => void }) {
  const t = useT();
  const locale = useLocale();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const isUser = subject.kind === 'user';
  const [values, setValues] = useState<ConfigurableProbes>(settings.values);
  const [choices, setChoices] = useState<UserChoices>(settings.overrides);
  // What the user would have without its own values: its current value where it has none of its own.
  const typeValue = (name: ProbeName) => (settings.overrides[name] === undefined ? settings.values[name] : undefined);

  const save = async () => {
    await permissionApi.saveProbes(subjectQuery(subject), isUser ? choices : values);
    showToast('success', t('jurisdiction.probesSaved'));
    await queryClient.invalidateQueries({ queryKey: ['visibilityProbes'] });
    onSaved();
  };

  const onOff = (value: boolean | undefined) => (value === undefined ? '?' : t(value ? 'jurisdiction.on' : 'jurisdiction.off'));
  return (
    <Card
      size="small"
      title={
        <Space>
          <span>{subject.kind === 'user' ? `${subject.account.name} (${subject.account.loginName})` : localTitle(USER_TYPE_LABELS[subject.userType], locale)}</span>
          {subject.kind === 'user' && <Tag>{localTitle(USER_TYPE_LABELS[subject.account.type], locale)}</Tag>}
        </Space>
      }
      extra={
        <Space>
          {isUser && Object.keys(settings.overrides).length > 0 && (
            <Button
              size="small"
              onClick={() =>
                modal.confirm({
                  title: t('jurisdiction.probesReset'),
                  onOk: async () => {
                    await permissionApi.resetUserProbes(subject.account.id);
                    onSaved();
                  },
                })
              }
            >
              {t('jurisdiction.probesReset')}
            </Button>
          )}
          <SubmitButton type="primary" size="small" onClick={save}>
            {t('jurisdiction.saveProbes')}
          </SubmitButton>
        </Space>
      }
    >
      <Alert type="info" showIcon style={{ marginBottom: 12 }} message={t(isUser ? 'jurisdiction.probesHelpUser' : 'jurisdiction.probesHelpType')} />
      <Table<{ name: ProbeName }>
        rowKey="name"
        size="small"
        pagination={false}
        dataSource={CONFIGURABLE_PROBE_NAMES.map((name) => ({ name }))}
        columns={[
          {
            key: 'probe',
            title: t('jurisdiction.probe'),
            render: (_value, { name }) => (
              <Space direction="vertical" size={0}>
                <span>{t(PROBE_LABELS[name]!.name)}</span>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {`${name} · ${t(PROBE_LABELS[name]!.help)}`}
                </Typography.Text>
              </Space>
            ),
          },
          {
            key: 'value',
            title: t('jurisdiction.value'),
            width: 360,
            render: (_value, { name }) =>
              isUser ? (
                <Radio.Group
                  optionType="button"
                  size="small"
                  value={choices[name] === undefined ? 'type' : choices[name] ? 'on' : 'off'}
                  onChange={(event) => {
                    const choice = event.target.value as 'type' | 'on' | 'off';
                    setChoices((current) => {
                      const next = { ...current };
                      if (choice === 'type') delete next[name];
                      else next[name] = choice === 'on';
                      return next;
                    });
                  }}
                  options={[
                    { value: 'type', label: t('jurisdiction.followType', { value: onOff(typeValue(name)) }) },
                    { value: 'on', label: t('jurisdiction.on') },
                    { value: 'off', label: t('jurisdiction.off') },
                  ]}
                />
              ) : (
                <Switch
                  aria-label={name}
                  checked={values[name]}
                  checkedChildren={t('jurisdiction.on')}
                  unCheckedChildren={t('jurisdiction.off')}
                  onChange={(checked) => setValues((current) => ({ ...current, [name]: checked }))}
                />
              ),
          },
        ]}
      />
    </Card>
  );
}
