/**
 * The fever threshold above the userTemperature alerts: everyone with the page reads it; company
 * users holding `examine` change it (the server checks both). Records arriving afterwards use it.
 */
import { API_PATHS, FEVER_THRESHOLD_MAX, FEVER_THRESHOLD_MIN, type FeverThreshold } from '@campus/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, InputNumber, Space, Typography } from 'antd';
import { useState } from 'react';
import { useLoginUser } from '../../hooks/use-login-user';
import { usePermission } from '../../hooks/use-permission';
import { useT } from '../../lib/i18n';
import { http } from '../../lib/request';
import { showToast } from '../../lib/toast';

const THRESHOLD_KEY = ['feverThreshold'] as const;

export function FeverThresholdCard({ frame }: { frame: string }) {
  const t = useT();
  const { can } = usePermission(frame);
  const user = useLoginUser().data;
  const queryClient = useQueryClient();
  const current = useQuery({ queryKey: THRESHOLD_KEY, queryFn: () => http.get<FeverThreshold>(API_PATHS.feverThreshold) });
  const [draft, setDraft] = useState<number | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const canEdit = can('examine') && user?.type === 'company';
  const save = async () => {
    if (draft === null) return;
    setIsSaving(true);
    try {
      await http.post<FeverThreshold>(API_PATHS.saveFeverThreshold, { threshold: draft });
      showToast('success', t('fever.thresholdSaved'));
      setDraft(null);
      await queryClient.invalidateQueries({ queryKey: THRESHOLD_KEY });
    } finally {
      setIsSaving(false);
    }
  };
  const threshold = current.data?.threshold;
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
