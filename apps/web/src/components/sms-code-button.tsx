import { Button, type ButtonProps } from 'antd';
import { useState } from 'react';
import { useCountdown } from '../hooks/use-countdown';
import { useT } from '../lib/i18n';
import { showToast } from '../lib/toast';

interface SmsCodeButtonProps extends Omit<ButtonProps, 'onClick' | 'children'> {
  /** Sends the code; rejecting (the request client has shown why) leaves the button ready again. */
  send: () => Promise<unknown>;
  /** When the last code went out (e.g. on the previous screen), so the countdown carries on. */
  sentAt?: number | null;
}

/** "Send code" with a 60 s countdown before it can be pressed again. */
export function SmsCodeButton({ send, sentAt, disabled, ...buttonProps }: SmsCodeButtonProps) {
  const t = useT();
  const countdown = useCountdown(undefined, sentAt);
  const [isSending, setSending] = useState(false);
  const [hasSent, setHasSent] = useState(Boolean(sentAt));

  const handleClick = async () => {
    setSending(true);
    try {
      await send();
      countdown.start();
      setHasSent(true);
      showToast('success', t('sms.sent'));
    } catch {
      // The request client already told the user; the button simply becomes available again.
    } finally {
      setSending(false);
    }
  };

  return (
    <Button {...buttonProps} loading={isSending} disabled={disabled || countdown.isRunning} onClick={handleClick}>
      {countdown.isRunning ? t('sms.countdown', { seconds: countdown.remaining }) : hasSent ? t('sms.resend') : t('sms.send')}
    </Button>
  );
}
