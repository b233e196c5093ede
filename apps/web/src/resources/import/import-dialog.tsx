/**
 * Excel import of a family: download the template, upload a file, see the server's dry run (each
 * wrong cell by row and column), then import every row, or only the valid ones, in one transaction.
 * Shown to callers holding `import` on families that declare it.
 */
import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { IMPORT_LIMITS, resourcePath, type ImportAnswer, type ImportCellError, type ImportPreview } from '@campus/contract';
import { Alert, Button, Modal, Space, Spin, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useLocale, useT } from '../../lib/i18n';
import { RequestError, buildUrl, downloadFile, saveFile } from '../../lib/request';
import { uploadFiles } from '../../lib/upload';
import { showToast } from '../../lib/toast';
import type { ResourceList } from '../list/use-resource-list';

/** A file's checks can take a while for 50,000 rows; the import longer. */
const IMPORT_TIMEOUT_MS = 180_000;

type Step = { kind: 'pick' } | { kind: 'checking'; file: File } | { kind: 'checked'; file: File; preview: ImportPreview } | { kind: 'refused'; message: string };

/** The import's calls, on the page's view (its fixed values and grant apply). */
function importCalls(family: string, view: string) {
  const path = (verb: string) => resourcePath(family, verb);
  return {
    template: (lang: 'zh' | 'en') => downloadFile(path('ImportTemplate'), { view, lang }, { fallbackName: `${family}-template.xlsx` }),
    preview: (file: File) => uploadFiles<ImportPreview>(buildUrl(path('ImportPreview'), { view }), [file], { silent: true, timeoutMs: IMPORT_TIMEOUT_MS }),
    run: (file: File, skipInvalid: boolean) => uploadFiles<ImportAnswer>(buildUrl(path('Import'), { view, skipInvalid: String(skipInvalid) }), [file], { timeoutMs: IMPORT_TIMEOUT_MS }),
  };
}

const countsOf = ({ total, valid, invalid }: ImportPreview) => ({ total, valid, invalid });

function ErrorTable({ preview }: { preview: ImportPreview }) {
  const t = useT();
  return (
    <Table<ImportCellError>
      size="small"
      rowKey={(error) => `${error.row}:${error.column}:${error.message}`}
      dataSource={preview.errors}
      pagination={{ pageSize: 8, showSizeChanger: false, hideOnSinglePage: true }}
      columns={[
        { title: t('resource.importRow'), dataIndex: 'row', width: 70 },
        { title: t('resource.importColumn'), dataIndex: 'column', width: 70 },
        { title: t('resource.importField'), dataIndex: 'header', width: 140, ellipsis: true },
        { title: t('resource.importError'), dataIndex: 'message' },
      ]}
    />
  );
}

export default function ImportDialog({ list, onClose }: { list: ResourceList; onClose: () => void }) {
  const t = useT();
  const locale = useLocale();
  const calls = importCalls(list.def.name, list.frame);
  const [step, setStep] = useState<Step>({ kind: 'pick' });
  const [isImporting, setIsImporting] = useState(false);
  const [isDownloading, setIsDownloading] = useState(false);

  const downloadTemplate = async () => {
    setIsDownloading(true);
    try {
      saveFile(await calls.template(locale === 'en' ? 'en' : 'zh'));
    } catch {
      // The request client has shown the failure.
    } finally {
      setIsDownloading(false);
    }
  };

  const check = async (file: File) => {
    setStep({ kind: 'checking', file });
    try {
      setStep({ kind: 'checked', file, preview: await calls.preview(file) });
    } catch (error) {
      // A file the server cannot read at all (not .xlsx, wrong header, too large): said in the dialog.
      setStep({ kind: 'refused', message: error instanceof RequestError ? error.message : t('resource.importFailed') });
    }
  };

  const run = async (file: File, skipInvalid: boolean) => {
    setIsImporting(true);
    try {
      const answer = await calls.run(file, skipInvalid);
      showToast('success', t('resource.importDone', { count: answer.imported }));
      await list.refresh();
      onClose();
    } catch (error) {
      // Rows changed since the check (a phone taken meanwhile): the server's new findings replace the old.
      const preview = error instanceof RequestError ? (error.data as { preview?: ImportPreview } | null)?.preview : undefined;
      if (preview) setStep({ kind: 'checked', file, preview });
    } finally {
      setIsImporting(false);
    }
  };

  const picker = (
    <Upload.Dragger
      accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
      multiple={false}
      showUploadList={false}
      beforeUpload={(file) => {
        void check(file);
        return false;
      }}
    >
      <p className="ant-upload-drag-icon">
        <InboxOutlined />
      </p>
      <p className="ant-upload-text">{t('resource.importPick')}</p>
      <p className="ant-upload-hint">{t('resource.importPickHint', { rows: IMPORT_LIMITS.maxRows.toLocaleString(), size: IMPORT_LIMITS.maxFileBytes / 1_048_576 })}</p>
    </Upload.Dragger>
  );

  const footer: React.ReactNode[] = [
    <Button key="close" onClick={onClose}>
      {t('common.cancel')}
    </Button>,
  ];
  if (step.kind === 'checked' || step.kind === 'refused') {
    footer.unshift(
      <Button key="again" onClick={() => setStep({ kind: 'pick' })} disabled={isImporting}>
        {t('resource.importAgain')}
      </Button>,
    );
  }
  if (step.kind === 'checked' && step.preview.valid > 0) {
    const { preview, file } = step;
    const onlyValid = preview.invalid > 0;
    footer.push(
      <Button key="run" type="primary" danger={onlyValid} loading={isImporting} onClick={() => void run(file, onlyValid)}>
        {onlyValid ? t('resource.importValidOnly', { count: preview.valid }) : t('resource.importRun', { count: preview.total })}
      </Button>,
    );
  }

  return (
    <Modal open title={t('resource.importTitle', { family: list.familyLabel })} width={760} onCancel={onClose} footer={footer} mask={{ closable: !isImporting }} destroyOnHidden>
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Space wrap>
          <Button icon={<DownloadOutlined />} loading={isDownloading} onClick={() => void downloadTemplate()}>
            {t('resource.importTemplate')}
          </Button>
          <Typography.Text type="secondary">{t('resource.importTemplateHint')}</Typography.Text>
        </Space>
        {step.kind === 'pick' && picker}
        {step.kind === 'checking' && (
          <Spin>
            <Alert type="info" showIcon message={t('resource.importChecking', { name: step.file.name })} />
          </Spin>
        )}
        {step.kind === 'refused' && <Alert type="error" showIcon message={t('resource.importFailed')} description={step.message} />}
        {step.kind === 'checked' && (
          <>
            <Alert
              type={step.preview.invalid === 0 ? 'success' : 'warning'}
              showIcon
              message={`${step.file.name} · ${t('resource.importSummary', countsOf(step.preview))}`}
              description={step.preview.invalid === 0 ? t('resource.importAllValid', countsOf(step.preview)) : t('resource.importFix')}
            />
            {step.preview.errors.length > 0 && <ErrorTable preview={step.preview} />}
            {step.preview.truncated && <Typography.Text type="secondary">{t('resource.importTruncated', { count: step.preview.errors.length })}</Typography.Text>}
          </>
        )}
      </Space>
    </Modal>
  );
}
