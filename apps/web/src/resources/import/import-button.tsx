import { ImportOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { Suspense, lazy, useState } from 'react';
import { useT } from '../../lib/i18n';
import type { ResourceList } from '../list/use-resource-list';

// The dialog (upload, preview table) downloads when it is first opened, not with the list.
const ImportDialog = lazy(() => import('./import-dialog'));

/** Opens the import dialog; shown to callers holding `import` on families that declare it. */
export function ImportButton({ list }: { list: ResourceList }) {
  const t = useT();
  const [isOpen, setIsOpen] = useState(false);
  if (!list.buttons.import) return null;
  return (
    <>
      <Button icon={<ImportOutlined />} onClick={() => setIsOpen(true)}>
        {t('resource.import')}
      </Button>
      {isOpen && (
        <Suspense fallback={null}>
          <ImportDialog list={list} onClose={() => setIsOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
