import { Card, Descriptions, Form, Input, Skeleton } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { USER_TYPE_LABELS, formatBusinessDateTime, isUserType, type LoginUserInfo, type UpdateLoginUserInfoRequest } from '@campus/contract';
import { SubmitButton } from '../../components/submit-button';
import { usePreventDoubleClick } from '../../hooks/use-prevent-double-click';
import { userApi } from '../../lib/api/user';
import { applyFieldErrors } from '../../lib/form-errors';
import { localTitle, useLocale, useT } from '../../lib/i18n';
import { showToast } from '../../lib/toast';
import { formRules } from '../../lib/validation-rules';

type ProfileForm = Required<UpdateLoginUserInfoRequest>;

function toForm(info: LoginUserInfo): ProfileForm {
  return {
    name: info.name,
    company: info.company ?? '',
    email: info.email ?? '',
    servicePhone1: info.servicePhone1 ?? '',
    servicePhone2: info.servicePhone2 ?? '',
    servicePhone3: info.servicePhone3 ?? '',
  };
}

const SERVICE_PHONES = ['servicePhone1', 'servicePhone2', 'servicePhone3'] as const;

/** Own profile: what an administrator keeps is shown, the rest is editable. */
export function ProfileCard({ info, queryKey }: { info: LoginUserInfo | undefined; queryKey: readonly unknown[] }) {
  const t = useT();
  const locale = useLocale();
  const rules = formRules(t);
  const queryClient = useQueryClient();
  const [form] = Form.useForm<ProfileForm>();

  useEffect(() => {
    if (info) form.setFieldsValue(toForm(info));
  }, [info, form]);

  const save = usePreventDoubleClick(async (values: ProfileForm) => {
    const trimmed = Object.fromEntries(Object.entries(values).map(([name, value]) => [name, (value ?? '').trim()])) as ProfileForm;
    try {
      await userApi.updateLoginUserInfo(trimmed);
      showToast('success', t('common.saved'));
      await queryClient.invalidateQueries({ queryKey });
    } catch (error) {
      applyFieldErrors(form, error);
    }
  });

  if (!info) {
    return (
      <Card title={t('profile.title')}>
        <Skeleton active />
      </Card>
    );
  }

  return (
    <Card title={t('profile.title')} extra={<span className="card-hint">{t('profile.readonlyHint')}</span>}>
      <Descriptions column={2} size="small" className="profile-facts">
        <Descriptions.Item label={t('field.loginName')}>{info.loginName}</Descriptions.Item>
        <Descriptions.Item label={t('field.type')}>{isUserType(info.type) ? localTitle(USER_TYPE_LABELS[info.type], locale) : info.type}</Descriptions.Item>
        <Descriptions.Item label={t('field.phoneNum')}>{info.phoneNum ?? '—'}</Descriptions.Item>
        {/* Only an external user belongs to a school; the others work across schools (the server names the company). */}
        {info.type === 'external' && <Descriptions.Item label={t('field.schoolName')}>{info.schoolName || '—'}</Descriptions.Item>}
        <Descriptions.Item label={t('field.lastLoginAt')}>{info.lastLoginAt ? formatBusinessDateTime(info.lastLoginAt) : '—'}</Descriptions.Item>
      </Descriptions>
      <Form form={form} layout="vertical" onFinish={save.run} initialValues={toForm(info)} className="profile-form">
        <div className="form-grid">
          <Form.Item name="name" label={t('field.name')} rules={[rules.required(t('field.name')), { max: 50 }]}>
            <Input maxLength={50} />
          </Form.Item>
          <Form.Item name="company" label={t('field.company')} rules={[{ max: 100 }]}>
            <Input maxLength={100} />
          </Form.Item>
          <Form.Item name="email" label={t('field.email')} rules={[rules.email]}>
            <Input />
          </Form.Item>
          {SERVICE_PHONES.map((name, position) => (
            <Form.Item key={name} name={name} label={t('field.servicePhone', { n: position + 1 })} rules={[rules.serviceLine]}>
              <Input maxLength={11} inputMode="numeric" />
            </Form.Item>
          ))}
        </div>
        <SubmitButton guard={save} type="primary" htmlType="submit">
          {t('common.save')}
        </SubmitButton>
      </Form>
    </Card>
  );
}
