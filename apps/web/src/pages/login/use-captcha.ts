import { useCallback, useEffect, useState } from 'react';
import { accountApi } from '../../lib/api/account';
import { captchaImageSrc } from '../../lib/captcha-image';

export interface CaptchaState {
  vcId: string | null;
  src: string | null;
  isLoading: boolean;
  hasFailed: boolean;
}

/** The login captcha. Codes are single-use, so a fresh one is fetched after each failed login. */
export function useCaptcha() {
  const [captcha, setCaptcha] = useState<CaptchaState>({ vcId: null, src: null, isLoading: true, hasFailed: false });

  const refresh = useCallback(async () => {
    setCaptcha((current) => ({ ...current, isLoading: true }));
    try {
      const answer = await accountApi.getCaptcha();
      setCaptcha({ vcId: answer.vcId, src: captchaImageSrc(answer.image), isLoading: false, hasFailed: false });
    } catch {
      setCaptcha({ vcId: null, src: null, isLoading: false, hasFailed: true });
    }
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  return { captcha, refresh };
}
