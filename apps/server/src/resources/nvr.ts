/**
 * NVR rules: each channel number once, and none beyond the recorder's channel count; online is
 * declared `until` the time a terminal of the school last reached it plus a margin (terminals/nvr-reach.ts).
 */
import { Nvr } from '@campus/contract';
import { badRequest, msg, type FieldProblem } from '../platform/errors.js';
import { defineFamilyModule } from './engine/modules.js';
import { valueAfter } from './engine/lookup.js';

export const nvrModule = defineFamilyModule(Nvr, {
  beforeWrite(_ctx, { values, existing }) {
    // Leaving `channels` out of an Update keeps the stored set, which was checked when written.
    const channels = values.channels;
    if (!channels) return values;
    const count = Number(valueAfter(values, existing, 'channelCount'));
    const seen = new Set<number>();
    const errors: FieldProblem[] = [];
    channels.forEach((line, position) => {
      const channel = Number(line.channelNo);
      if (channel > count) errors.push({ path: `channels.${position}.channelNo`, ...msg('nvr.channelBeyondCount', { count }) });
      else if (seen.has(channel)) errors.push({ path: `channels.${position}.channelNo`, ...msg('nvr.channelTwice', { channel }) });
      seen.add(channel);
    });
    if (errors.length) throw badRequest(errors);
    return values;
  },
});
