/**
 * The platform-wide terminal settings above the terminal list: the heartbeat interval told to devices
 * and the similarity a known person's event must reach to count as recognised. Everyone with the page
 * reads them; company users holding `update` change them (the server checks both and the bounds).
 */
import { API_PATHS, HEARTBEAT_SECONDS_MAX, HEARTBEAT_SECONDS_MIN, type TerminalSettings } from '@campus/contract';
import { Button, Card, Space, Typography } from 'antd';
import { useState } from 'react';
import { usePlatformSetting } from '../../hooks/use-platform-setting';
import { useT } from '../../lib/i18n';
import { InputNumber } from '../deferred-inputs';

export function TerminalSettingsCard({ frame }: { frame: string }) {
  const t = useT();
  const setting = usePlatformSetting<TerminalSettings>({
    key: 'terminalSettings',
    path: API_PATHS.terminalSettings,
    savePath: API_PATHS.saveTerminalSettings,
    frame,
    button: 'update',
    savedMessage: 'terminalSettings.saved',
  });
  const [draft, setDraft] = useState<Partial<TerminalSettings>>({});
  const { canEdit, isSaving, value: saved } = setting;
  const shown = saved ? { ...saved, ...draft } : undefined;
  const isChanged = !!saved && !!shown && (shown.heartbeatSeconds !== saved.heartbeatSeconds || shown.successSimilarity !== saved.successSimilarity);
  const save = async () => {
    if (shown && (await setting.save(shown))) setDraft({});
  };
  const heartbeatLabel = t('terminalSettings.heartbeatSeconds');
  const similarityLabel = t('terminalSettings.successSimilarity');
  return (
    <Card size="small" data-testid="terminal-settings">
      <Space wrap size="middle">
        {canEdit ? (
          <>
            <Space size="small">
              <Typography.Text strong>{heartbeatLabel}</Typography.Text>
              <InputNumber
                aria-label={heartbeatLabel}
                min={HEARTBEAT_SECONDS_MIN}
                max={HEARTBEAT_SECONDS_MAX}
                precision={0}
                addonAfter={t('terminalSettings.seconds')}
                value={shown?.heartbeatSeconds ?? null}
                onChange={(value) => value !== null && setDraft((previous) => ({ ...previous, heartbeatSeconds: value }))}
              />
            </Space>
            <Space size="small">
              <Typography.Text strong>{similarityLabel}</Typography.Text>
              <InputNumber
                aria-label={similarityLabel}
                min={0}
                max={100}
                step={0.1}
                precision={1}
                value={shown?.successSimilarity ?? null}
                onChange={(value) => value !== null && setDraft((previous) => ({ ...previous, successSimilarity: value }))}
              />
            </Space>
            <Button type="primary" loading={isSaving} disabled={!isChanged} onClick={() => void save()}>
              {t('terminalSettings.save')}
            </Button>
          </>
        ) : (
          <>
            <Typography.Text>
              <Typography.Text strong>{heartbeatLabel}</Typography.Text> {shown ? `${shown.heartbeatSeconds} ${t('terminalSettings.seconds')}` : '-'}
            </Typography.Text>
            <Typography.Text>
              <Typography.Text strong>{similarityLabel}</Typography.Text> {shown ? shown.successSimilarity : '-'}
            </Typography.Text>
          </>
        )}
        <Typography.Text type="secondary">{t('terminalSettings.hint')}</Typography.Text>
      </Space>
    </Card>
  );
}
