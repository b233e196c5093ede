/**
 * What a terminal's screen shows, handed out with each heartbeat answer: the terminal ads (Poster of
 * the terminal kind) whose window holds today and whose audience reaches the device's school, and the
 * school's screen texts (the device's own first). A device without a school gets the ads for all.
 */
import { POSTER_AUDIENCE_ALL, POSTER_KIND_TERMINAL, Poster, formatBusinessDate, type IntakeAd } from '@campus/contract';
import { and, asc, desc, eq, gte, isNull, lte, or, sql } from 'drizzle-orm';
import { posters, screenChatContents } from '../db/schema/index.js';
import { audienceReachesSchool } from '../resources/engine/audience.js';
import type { ScreenHandlers } from './intake-handlers.js';

/** Ads and texts one answer carries at most: a screen loops through a handful, not a catalogue. */
export const MAX_SCREEN_ADS = 20;
export const MAX_SCREEN_TEXTS = 10;

/** The screen side of the heartbeat, installed at start (resources/families.ts). */
export const screenHandlers: ScreenHandlers = {
  async screenFor(tx, device, now, signer) {
    const today = formatBusinessDate(now);
    const reaches =
      device.schoolId === null
        ? eq(posters.audience, POSTER_AUDIENCE_ALL)
        : audienceReachesSchool(Poster, device.schoolId);
    const adRows = await tx
      .select({ id: posters.id, title: posters.title, image: posters.image, video: posters.video, displaySeconds: posters.displaySeconds, endDate: posters.endDate })
      .from(posters)
      .where(and(eq(posters.kind, POSTER_KIND_TERMINAL), eq(posters.enabled, true), lte(posters.startDate, today), gte(posters.endDate, today), reaches))
      .orderBy(asc(posters.sort), desc(posters.id))
      .limit(MAX_SCREEN_ADS);
    const ads: IntakeAd[] = adRows.map((ad) => ({
      id: Number(ad.id),
      title: String(ad.title),
      ...(ad.image ? { imageUrl: signer.sign(String(ad.image)) } : {}),
      ...(ad.video ? { videoUrl: signer.sign(String(ad.video)) } : {}),
      displaySeconds: Number(ad.displaySeconds),
      endDate: String(ad.endDate),
    }));
    if (device.schoolId === null) return { ads, screenTexts: [] };
    const texts = await tx
      .select({ content: screenChatContents.content })
      .from(screenChatContents)
      .where(
        and(
          eq(screenChatContents.schoolId, device.schoolId),
          eq(screenChatContents.enabled, true),
          lte(screenChatContents.startDate, today),
          gte(screenChatContents.endDate, today),
          or(isNull(screenChatContents.deviceId), eq(screenChatContents.deviceId, device.id)),
        ),
      )
      // The device's own texts before the school's.
      .orderBy(sql`${screenChatContents.deviceId} is null`, desc(screenChatContents.id))
      .limit(MAX_SCREEN_TEXTS);
    return { ads, screenTexts: texts.map((text) => String(text.content)) };
  },
};
