/** homeCustomization: which widgets the caller's home page shows and in what order, saved on the server. */
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, List, Space, Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { completeHomeWidgets, type HomeWidgetSetting } from '@campus/contract';
import { usePermission } from '../../hooks/use-permission';
import { liveApi } from '../../lib/api/live';
import { useT } from '../../lib/i18n';
import { useSession } from '../../lib/session';
import { showToast } from '../../lib/toast';
import { homeWidgetsKey } from '../live/home-widgets-query';

export default function HomeCustomizationPage() {
  const t = useT();
  const token = useSession()?.token ?? null;
  const { can, isLoaded } = usePermission('homeCustomization');
  const queryClient = useQueryClient();
  const saved = useQuery({ queryKey: homeWidgetsKey(token), queryFn: liveApi.getHomeWidgets, enabled: token !== null });
  const [draft, setDraft] = useState<HomeWidgetSetting[]>([]);
  useEffect(() => {
    if (saved.data) setDraft(saved.data);
  }, [saved.data]);
  const save = useMutation({
    mutationFn: () => liveApi.saveHomeWidgets(draft),
    onSuccess: (widgets) => {
      queryClient.setQueryData(homeWidgetsKey(token), widgets);
      showToast('success', t('live.widgetsSaved'));
    },
  });
  const canSave = can('update');
  const move = (from: number, to: number) =>
    setDraft((list) => {
      const next = [...list];
      const [item] = next.splice(from, 1);
      next.splice(to, 0, item!);
      return next;
    });

  return (
    <div className="page-stack" data-testid="home-customization">
      <Card title={t('live.widgetsTitle')} loading={saved.isPending}>
        <Typography.Paragraph type="secondary">{t('live.widgetsHelp')}</Typography.Paragraph>
        {isLoaded && !canSave ? <Alert type="info" showIcon message={t('live.widgetsNoRight')} style={{ marginBottom: 12 }} /> : null}
        <List
          bordered
          dataSource={draft}
          renderItem={(widget, position) => (
            <List.Item
              data-widget={widget.key}
              actions={[
                <Button key="up" size="small" icon={<ArrowUpOutlined />} aria-label={t('live.widgetUp')} disabled={!canSave || position === 0} onClick={() => move(position, position - 1)} />,
                <Button key="down" size="small" icon={<ArrowDownOutlined />} aria-label={t('live.widgetDown')} disabled={!canSave || position === draft.length - 1} onClick={() => move(position, position + 1)} />,
              ]}
            >
              <Space>
                <Switch
                  checked={widget.visible}
                  disabled={!canSave}
                  aria-label={t(`live.widget.${widget.key}`)}
                  onChange={(visible) => setDraft((list) => list.map((item) => (item.key === widget.key ? { ...item, visible } : item)))}
                />
                <span>{t(`live.widget.${widget.key}`)}</span>
              </Space>
            </List.Item>
          )}
        />
        <Space style={{ marginTop: 16 }}>
          <Button type="primary" disabled={!canSave} loading={save.isPending} onClick={() => save.mutate()} data-testid="save-widgets">
            {t('live.widgetsSave')}
          </Button>
          <Button disabled={!canSave} onClick={() => setDraft(completeHomeWidgets([]))}>
            {t('live.widgetsReset')}
          </Button>
        </Space>
      </Card>
    </div>
  );
}
