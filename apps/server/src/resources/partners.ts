/**
 * Partner platforms: the API key is sealed by the engine (a sealed password field) and never answered;
 * its last four characters are kept beside it so staff can tell which key is stored.
 */
import { AppCooperationPlatform } from '@campus/contract';
import { defineFamilyModule } from './engine/modules.js';

/** How a stored key is shown: masked but for its last four characters. */
export function maskedKeyHint(key: string): string {
  return `****${key.slice(-4)}`;
}

export const appCooperationPlatformModule = defineFamilyModule(AppCooperationPlatform, {
  beforeWrite(_ctx, { values }) {
    // A key shorter than 12 characters shows no characters at all: four of eight would give half away.
    if (typeof values.apiKey === 'string' && values.apiKey) return { ...values, apiKeyHint: values.apiKey.length >= 12 ? maskedKeyHint(values.apiKey) : '****' };
    return values;
  },
});
