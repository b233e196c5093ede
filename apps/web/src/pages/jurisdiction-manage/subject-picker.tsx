import { USER_TYPES, USER_TYPE_LABELS, type GrantAccount, type UserType } from '@campus/contract';
import { useQuery } from '@tanstack/react-query';
import { Segmented, Select, Space, Tag } from 'antd';
import { useState } from 'react';
import { useDebouncedValue } from '../../hooks/use-debounced-value';
import { permissionApi, type GrantSubject } from '../../lib/api/permission';
import { localTitle, useLocale, useT } from '../../lib/i18n';

export type PickedSubject = { kind: 'type'; userType: UserType } | { kind: 'user'; account: GrantAccount };

export const subjectQuery = (subject: PickedSubject): GrantSubject =>
  subject.kind === 'type' ? { userType: subject.userType } : { userId: subject.account.id };

export const subjectKey = (subject: PickedSubject | null) =>
  subject === null ? 'none' : subject.kind === 'type' ? `type:${subject.userType}` : `user:${subject.account.id}`;

interface SubjectPickerProps {
  value: PickedSubject | null;
  onChange: (subject: PickedSubject | null) => void;
  /** Company administrators pick user types too; an agent picks one of its child accounts. */
  allowTypes: boolean;
}

/** Picks whose grant (or probes) to edit: a user type, or an account found by login name or name. */
export function SubjectPicker({ value, onChange, allowTypes }: SubjectPickerProps) {
  const t = useT();
  const locale = useLocale();
  const [mode, setMode] = useState<'type' | 'user'>(allowTypes ? (value?.kind ?? 'type') : 'user');
  const [typed, setTyped] = useState('');
  const keyword = useDebouncedValue(typed.trim(), 300);
  const accounts = useQuery({
    queryKey: ['grantAccounts', keyword],
    queryFn: () => permissionApi.searchAccounts(keyword),
    enabled: mode === 'user',
    staleTime: 30_000,
  });
  const picked = value?.kind === 'user' ? value.account : undefined;
  const options = [...(picked && !accounts.data?.some((a) => a.id === picked.id) ? [picked] : []), ...(accounts.data ?? [])];

  return (
    <Space wrap size="middle">
      {allowTypes && (
        <Segmented<'type' | 'user'>
          value={mode}
          onChange={(next) => {
            setMode(next);
            onChange(null);
          }}
          options={[
            { value: 'type', label: t('jurisdiction.byType') },
            { value: 'user', label: t('jurisdiction.byUser') },
          ]}
        />
      )}
      {mode === 'type' ? (
        <Select<UserType>
          style={{ width: 220 }}
          aria-label={t('jurisdiction.pickType')}
          placeholder={t('jurisdiction.pickType')}
          value={value?.kind === 'type' ? value.userType : undefined}
          onChange={(userType) => onChange({ kind: 'type', userType })}
          options={USER_TYPES.map((type) => ({ value: type, label: localTitle(USER_TYPE_LABELS[type], locale) }))}
        />
      ) : (
        <Select<number>
          style={{ width: 380 }}
          aria-label={t('jurisdiction.pickUser')}
          placeholder={t('jurisdiction.pickUser')}
          showSearch={{ filterOption: false, onSearch: setTyped }}
          loading={accounts.isFetching}
          value={picked?.id}
          onChange={(id) => {
            const account = options.find((candidate) => candidate.id === id);
            onChange(account ? { kind: 'user', account } : null);
          }}
          options={options.map((account) => ({
            value: account.id,
            label: (
              <Space size={4}>
                <span>{`${account.name} (${account.loginName})`}</span>
                <Tag>{localTitle(USER_TYPE_LABELS[account.type], locale)}</Tag>
                {!account.enabled && <Tag color="red">{t('jurisdiction.disabled')}</Tag>}
              </Space>
            ),
          }))}
        />
      )}
    </Space>
  );
}
