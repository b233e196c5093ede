/**
 * The fever threshold above the userTemperature alerts: everyone with the page reads it; company
 * users holding `examine` change it (the server checks both). Records arriving afterwards use it.
 */
import { API_PATHS, FEVER_THRESHOLD_MAX, FEVER_THRESHOLD_MIN, type FeverThreshold } from '@campus/contract';
import { Button, Card, InputNumber, Space, Typography } from 'antd';
import { useState } from 'react';
import { usePlatformSetting } from '../../hooks/use-platform-setting';
import { useT } from '../../lib/i18n';

export function FeverThresholdCard({ frame }: { frame: string }) {
  const t = useT();
  const setting = usePlatformSetting<FeverThreshold>({
    key: 'feverThreshold',
    path: API_PATHS.feverThreshold,
    savePath: API_PATHS.saveFeverThreshold,
    frame,
    button: 'examine',
    savedMessage: 'fever.thresholdSaved',
  });
  const [draft, setDraft] = useState<number | null>(null);
  const { canEdit, isSaving } = setting;
  const save = async () => {
    if (draft !== null && (await setting.save({ threshold: draft }))) setDraft(null);
  };
  const threshold = setting.value?.threshold;
  return (
    <Card size="small">
      <Space wrap>
        <Typography.Text strong>{t('fever.threshold')}</Typography.Text>
        {canEdit ? (
          <>
            <InputNumber<number>
              aria-label={t('fever.threshold')}
              min={FEVER_THRESHOLD_MIN}
              max={FEVER_THRESHOLD_MAX}
              step={0.1}
              precision={1}
              addonAfter="℃"
              value={draft ?? threshold ?? null}
              onChange={(value) => setDraft(value)}
            />
            <Button type="primary" loading={isSaving} disabled={draft === null || draft === threshold} onClick={() => void save()}>
              {t('fever.saveThreshold')}
            </Button>
          </>
        ) : (
          <Typography.Text>{threshold === undefined ? '-' : `${threshold.toFixed(1)} ℃`}</Typography.Text>
        )}
        <Typography.Text type="secondary">{t('fever.thresholdHint')}</Typography.Text>
      </Space>
    </Card>
  );
}
