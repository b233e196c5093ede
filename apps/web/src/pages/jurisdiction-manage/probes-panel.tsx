import { CONFIGURABLE_PROBE_NAMES, USER_TYPE_LABELS, type ConfigurableProbes, type ProbeSettings } from '@campus/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Empty, Radio, Space, Switch, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { SubmitButton } from '../../components/submit-button';
import { useLabelText } from '../../hooks/use-label-text';
import { permissionApi } from '../../lib/api/permission';
import { showToast } from '../../lib/toast';
import { SubjectPicker, subjectKey, subjectQuery, type PickedSubject } from './subject-picker';
import { PROBE_LABELS, TEXT } from './texts';

type ProbeName = keyof ConfigurableProbes;
/** A user's choice per probe: its own value, or undefined = follow its type. */
type UserChoices = Partial<Record<ProbeName, boolean>>;

/** Visibility probes of a user type (switches) or of one user (follow type / on / off). */
export function ProbesPanel() {
  const text = useLabelText();
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
          <Empty description={text(TEXT.pickFirst)} />
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
  const text = useLabelText();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const isUser = subject.kind === 'user';
  const [values, setValues] = useState<ConfigurableProbes>(settings.values);
  const [choices, setChoices] = useState<UserChoices>(settings.overrides);
  // What the user would have without its own values: its current value where it has none of its own.
  const typeValue = (name: ProbeName) => (settings.overrides[name] === undefined ? settings.values[name] : undefined);

  const save = async () => {
    await permissionApi.saveProbes(subjectQuery(subject), isUser ? choices : values);
    showToast('success', text(TEXT.probesSaved));
    await queryClient.invalidateQueries({ queryKey: ['visibilityProbes'] });
    onSaved();
  };

  const onOff = (value: boolean | undefined) => (value === undefined ? '?' : text(value ? TEXT.on : TEXT.off));
  return (
    <Card
      size="small"
      title={
        <Space>
          <span>{subject.kind === 'user' ? `${subject.account.name} (${subject.account.loginName})` : text(USER_TYPE_LABELS[subject.userType])}</span>
          {subject.kind === 'user' && <Tag>{text(USER_TYPE_LABELS[subject.account.type])}</Tag>}
        </Space>
      }
      extra={
        <Space>
          {isUser && Object.keys(settings.overrides).length > 0 && (
            <Button
              size="small"
              onClick={() =>
                modal.confirm({
                  title: text(TEXT.probesReset),
                  onOk: async () => {
                    await permissionApi.resetUserProbes(subject.account.id);
                    onSaved();
                  },
                })
              }
            >
              {text(TEXT.probesReset)}
            </Button>
          )}
          <SubmitButton type="primary" size="small" onClick={save}>
            {text(TEXT.saveProbes)}
          </SubmitButton>
        </Space>
      }
    >
      <Alert type="info" showIcon style={{ marginBottom: 12 }} message={text(isUser ? TEXT.probesHelpUser : TEXT.probesHelpType)} />
      <Table<{ name: ProbeName }>
        rowKey="name"
        size="small"
        pagination={false}
        dataSource={CONFIGURABLE_PROBE_NAMES.map((name) => ({ name }))}
        columns={[
          {
            key: 'probe',
            title: text(TEXT.probe),
            render: (_value, { name }) => (
              <Space direction="vertical" size={0}>
                <span>{text(PROBE_LABELS[name]!.name)}</span>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {`${name} · ${text(PROBE_LABELS[name]!.help)}`}
                </Typography.Text>
              </Space>
            ),
          },
          {
            key: 'value',
            title: text(TEXT.value),
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
                    { value: 'type', label: text(TEXT.followType, { value: onOff(typeValue(name)) }) },
                    { value: 'on', label: text(TEXT.on) },
                    { value: 'off', label: text(TEXT.off) },
                  ]}
                />
              ) : (
                <Switch
                  aria-label={name}
                  checked={values[name]}
                  checkedChildren={text(TEXT.on)}
                  unCheckedChildren={text(TEXT.off)}
                  onChange={(checked) => setValues((current) => ({ ...current, [name]: checked }))}
                />
              ),
          },
        ]}
      />
    </Card>
  );
}
