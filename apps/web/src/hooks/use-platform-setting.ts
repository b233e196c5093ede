import type { ButtonValue } from '@campus/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useT, type MessageKey } from '../lib/i18n';
import { http } from '../lib/request';
import { showToast } from '../lib/toast';
import { useLoginUser } from './use-login-user';
import { usePermission } from './use-permission';

export interface PlatformSettingOptions {
  /** The query key the setting is cached under. */
  key: string;
  /** GET path that answers the setting, and POST path that saves it. */
  path: string;
  savePath: string;
  /** The page's frame, and the button of it that lets a company user change the setting. */
  frame: string;
  button: ButtonValue;
  /** Shown once the server has saved. */
  savedMessage: MessageKey;
}

/**
 * A platform-wide setting shown above a page (fever threshold, terminal settings, two-factor
 * policy): everyone with the page reads it, company users holding the page's button change it; the
 * server checks both. `save` answers whether the server took the value (a refusal was already shown
 * by the request client).
 */
export function usePlatformSetting<T>({ key, path, savePath, frame, button, savedMessage }: PlatformSettingOptions) {
  const t = useT();
  const { can } = usePermission(frame);
  const user = useLoginUser().data;
  const queryClient = useQueryClient();
  const current = useQuery({ queryKey: [key], queryFn: () => http.get<T>(path) });
  const [isSaving, setIsSaving] = useState(false);
  const save = async (value: T): Promise<boolean> => {
    setIsSaving(true);
    try {
      await http.post<T>(savePath, value);
      showToast('success', t(savedMessage));
      await queryClient.invalidateQueries({ queryKey: [key] });
      return true;
    } catch {
      return false;
    } finally {
      setIsSaving(false);
    }
  };
  return { value: current.data, isLoading: current.isLoading, canEdit: can(button) && user?.type === 'company', isSaving, save };
}
