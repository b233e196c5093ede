/**
 * The value an action answers once (`ActionDef.reveal`), e.g. a terminal's secret: shown in a modal
 * with a copy button. The server keeps no way to show it again, so the modal closes only by the
 * user's choice, never by a click beside it.
 */
import type { ActionDef } from '@campus/contract';
import { Alert, Button, Modal, Typography } from 'antd';
import { useLocale, useT } from '../../lib/i18n';
import { labelText } from '../shared/labels';

export interface RevealedValue {
  reveal: NonNullable<ActionDef['reveal']>;
  value: string;
  /** Names the row in the title. */
  rowTitle: string;
}

/** The value of `reveal.field` in an action's answer, when it is text. */
export function revealedValueOf(action: ActionDef, answer: unknown): string | undefined {
  if (!action.reveal || typeof answer !== 'object' || answer === null) return undefined;
  const value = (answer as Record<string, unknown>)[action.reveal.field];
  return typeof value === 'string' ? value : undefined;
}

export function RevealedValueModal({ revealed, onClose }: { revealed: RevealedValue; onClose: () => void }) {
  const t = useT();
  const locale = useLocale();
  return (
    <Modal
      open
      title={`${labelText(revealed.reveal.label, locale)} · ${revealed.rowTitle}`}
      onCancel={onClose}
      mask={{ closable: false }}
      destroyOnHidden
      footer={
        <Button type="primary" onClick={onClose}>
          {t('resource.revealedCopied')}
        </Button>
      }
    >
      <Alert type="warning" showIcon title={labelText(revealed.reveal.help, locale)} description={t('resource.revealedOnce')} style={{ marginBottom: 16 }} />
      <Typography.Paragraph code copyable={{ text: revealed.value }} data-testid="revealed-value" style={{ wordBreak: 'break-all' }}>
        {revealed.value}
      </Typography.Paragraph>
    </Modal>
  );
}
