/**
 * "My views": the user's named filter presets of a list page, kept on the server (issue 11). Apply
 * one to set its filters; save what the filter bar holds under a name (the same name replaces it);
 * delete one.
 */
import { DeleteOutlined, DownOutlined, StarOutlined } from '@ant-design/icons';
import type { FilterView } from '@campus/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Dropdown, Form, Input, Modal, type MenuProps } from 'antd';
import { useState } from 'react';
import { useT } from '../../lib/i18n';
import { showToast } from '../../lib/toast';
import type { FilterPayload } from './filter-payload';
import { preferencesApi, preferencesKey, usePagePreferences } from '../shared/preferences-api';

interface FilterViewsProps {
  /** The list page's key (`frame.Family`). */
  page: string;
  /** The filters to save: what the filter bar holds now, as Search would send them. */
  currentFilters: () => FilterPayload;
  onApply: (filters: FilterPayload) => void;
}

const NO_VIEWS: FilterView[] = [];

export function FilterViews({ page, currentFilters, onApply }: FilterViewsProps) {
  const t = useT();
  const queryClient = useQueryClient();
  const views = usePagePreferences(page).data?.views ?? NO_VIEWS;
  const [isNaming, setNaming] = useState(false);
  const [isSaving, setSaving] = useState(false);
  const [form] = Form.useForm<{ name: string }>();

  const save = async ({ name }: { name: string }) => {
    setSaving(true);
    try {
      const answer = await preferencesApi.saveView(page, { name: name.trim(), filters: currentFilters() });
      queryClient.setQueryData(preferencesKey(page), answer);
      showToast('success', t('resource.viewSaved', { name: name.trim() }));
      setNaming(false);
      form.resetFields();
    } catch {
      // The request client has shown why; the dialog stays open to try another name.
    } finally {
      setSaving(false);
    }
  };
  const remove = async (name: string) => {
    const answer = await preferencesApi.deleteView(page, name);
    queryClient.setQueryData(preferencesKey(page), answer);
    showToast('success', t('resource.viewDeleted', { name }));
  };

  const items: MenuProps['items'] = [
    ...(views.length === 0
      ? [{ key: 'empty', label: t('resource.viewsEmpty'), disabled: true }]
      : views.map((view) => ({
          key: `view:${view.name}`,
          label: (
            <span className="filter-view-item">
              <span className="filter-view-name">{view.name}</span>
              <Button
                type="text"
                size="small"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('resource.viewDelete', { name: view.name })}
                onClick={(event) => {
                  event.stopPropagation();
                  void remove(view.name).catch(() => undefined);
                }}
              />
            </span>
          ),
        }))),
    { type: 'divider' },
    { key: 'save', label: t('resource.viewSave') },
  ];
  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'save') return setNaming(true);
    const view = views.find((candidate) => `view:${candidate.name}` === key);
    if (view) onApply(view.filters);
  };

  return (
    <>
      <Dropdown trigger={['click']} menu={{ items, onClick }}>
        <Button icon={<StarOutlined />} data-testid="filter-views">
          {t('resource.views')} <DownOutlined />
        </Button>
      </Dropdown>
      <Modal
        open={isNaming}
        title={t('resource.viewSave')}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        confirmLoading={isSaving}
        onOk={() => form.submit()}
        onCancel={() => setNaming(false)}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" onFinish={save} preserve={false}>
          <Form.Item name="name" label={t('resource.viewName')} rules={[{ required: true, whitespace: true, max: 40 }]}>
            <Input maxLength={40} autoFocus />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
