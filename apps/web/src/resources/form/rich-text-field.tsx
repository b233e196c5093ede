/**
 * A rich-text field in a form: the editor (loaded on first use) and a preview of the article on a
 * phone, drawn with the same styles the app's article view uses.
 */
import { EyeOutlined } from '@ant-design/icons';
import { Button, Modal, Skeleton } from 'antd';
import { Suspense, lazy, useState } from 'react';
import { useT } from '../../lib/i18n';
import '../../components/rich-text-editor.css';

const RichTextEditor = lazy(() => import('../../components/rich-text-editor'));

/** The article as the app shows it: the HTML the server stored (sanitised against its allow-list). */
export function AppArticlePreview({ title, html }: { title?: string; html: string }) {
  return (
    <div className="app-preview-phone" data-testid="app-article-preview">
      {title ? <div className="app-preview-phone-title">{title}</div> : null}
      {/* The server keeps only allow-listed tags and attributes (engine/rich-text.ts); the editor writes no others. */}
      <div className="app-preview-phone-body app-article" dangerouslySetInnerHTML={{ __html: html }} />
    </div>
  );
}

export function RichTextField({ id, value, onChange }: { id?: string; value?: string; onChange?: (html: string) => void }) {
  const t = useT();
  const [isPreviewing, setPreviewing] = useState(false);
  return (
    <div>
      <Suspense fallback={<Skeleton active paragraph={{ rows: 4 }} />}>
        <RichTextEditor id={id} value={value} onChange={onChange} />
      </Suspense>
      <Button size="small" type="link" icon={<EyeOutlined />} onClick={() => setPreviewing(true)} style={{ paddingInline: 0 }}>
        {t('richText.preview')}
      </Button>
      <Modal open={isPreviewing} title={t('richText.previewTitle')} footer={null} onCancel={() => setPreviewing(false)} width={440} destroyOnHidden>
        <AppArticlePreview html={value ?? ''} />
      </Modal>
    </div>
  );
}
