import type { SettingDef } from '@campus/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { http } from '../lib/request';
import { showToast } from '../lib/toast';
import { useLabelText } from './use-label-text';
import { useLoginUser } from './use-login-user';
import { usePermission } from './use-permission';

export interface PlatformSettingOptions {
  /** The declared setting: its calls, the button that changes it and the message once saved. */
  setting: SettingDef;
  /** The page showing it, whose button the caller must hold. */
  frame: string;
}

/**
 * A platform-wide setting shown above a page (fever threshold, terminal settings, two-factor
 * policy): everyone with the page reads it, company users holding the declared button change it; the
 * server checks both. `save` answers whether the server took the value (a refusal was already shown
 * by the request client).
 */
export function usePlatformSetting<T>({ setting, frame }: PlatformSettingOptions) {
  const text = useLabelText();
  const { can } = usePermission(frame);
  const user = useLoginUser().data;
  const queryClient = useQueryClient();
  const key = ['setting', setting.name];
  const current = useQuery({ queryKey: key, queryFn: () => http.get<T>(setting.paths.get) });
  const [isSaving, setIsSaving] = useState(false);
  const save = async (value: T): Promise<boolean> => {
    setIsSaving(true);
    try {
      await http.post<T>(setting.paths.save, value);
      showToast('success', text(setting.saved));
      await queryClient.invalidateQueries({ queryKey: key });
      return true;
    } catch {
      return false;
    } finally {
      setIsSaving(false);
    }
  };
  return { value: current.data, isLoading: current.isLoading, canEdit: can(setting.button) && user?.type === 'company', isSaving, save };
}
