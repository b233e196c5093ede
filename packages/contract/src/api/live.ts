/**
 * Live updates (docs/live.md): the server-sent event stream, its topics, the Overview figures and
 * the home page's widgets. The stream carries small "something changed" events; a page refetches
 * what it shows through its own scoped call, so an event never carries a figure the caller may not see.
 */
import { z } from 'zod';

export const LIVE_PATHS = {
  stream: '/api/Live/Stream',
  overview: '/api/Overview/GetSummary',
  homeWidgets: '/api/HomeWidget/Get',
  saveHomeWidgets: '/api/HomeWidget/Save',
} as const;

/**
 * Topics published by the server:
 * - `badges`: a row behind a menu badge changed (a refund applied, a ticket opened, ...);
 * - `terminals`: a terminal came online or went offline (`data`: `{ terminalId, online }`);
 * - `recognitions`: recognition events were stored for a school (`data`: `{ count }`), one per intake call;
 * - `overview`: a figure of the Overview moved for a school (recognitions, payments, terminals, people).
 * `session` is the stream's own: it ends the stream (`data`: `{ reason }`).
 */
export const LIVE_TOPICS = ['badges', 'terminals', 'recognitions', 'overview'] as const;
export type LiveTopic = (typeof LIVE_TOPICS)[number];

/** One event as the stream sends it (`event: <topic>`, `data: <this JSON>`). */
export interface LiveEvent {
  topic: LiveTopic;
  /** The school the change belongs to; null for a change of no one school (seen by every caller). */
  schoolId: number | null;
  data?: unknown;
  /** When it was published (ms since the epoch): the latency benchmark reads it. */
  at: number;
}

/** Seconds between the stream's heartbeats (a comment line, and the session checked again). */
export const LIVE_HEARTBEAT_SECONDS = 15;

/**
 * A figure of today and the same figure yesterday and a week ago, each until the same time of day
 * (devices online and offline: at that instant, from the terminals' offline periods).
 */
export const overviewFigureSchema = z.object({
  today: z.number(),
  yesterday: z.number(),
  lastWeek: z.number(),
});
export type OverviewFigure = z.infer<typeof overviewFigureSchema>;

export const OVERVIEW_FIGURES = ['schools', 'students', 'parents', 'devicesOnline', 'devicesOffline', 'recognitions', 'revenue'] as const;
export type OverviewFigureKey = (typeof OVERVIEW_FIGURES)[number];

export const overviewSchema = z.object({
  figures: z.object(Object.fromEntries(OVERVIEW_FIGURES.map((key) => [key, overviewFigureSchema])) as Record<OverviewFigureKey, typeof overviewFigureSchema>),
  /** Recognitions of today per hour (0–23, China time), for the charts. */
  recognitionsByHour: z.array(z.number()),
  /** The schools with most recognitions today (at most 10). */
  topSchools: z.array(z.object({ schoolId: z.number(), name: z.string(), recognitions: z.number() })),
  /** The time the figures were read at (ISO). */
  at: z.string(),
});
export type Overview = z.infer<typeof overviewSchema>;

/** The widgets of the home page, in their default order. */
export const HOME_WIDGETS = ['figures', 'pending', 'account', 'notices', 'shortcuts'] as const;
export type HomeWidget = (typeof HOME_WIDGETS)[number];

export const homeWidgetSettingSchema = z.strictObject({ key: z.enum(HOME_WIDGETS), visible: z.boolean() });
export type HomeWidgetSetting = z.infer<typeof homeWidgetSettingSchema>;

/** The caller's widgets in order; a widget the list leaves out is shown after the others. */
export const homeWidgetsSchema = z
  .array(homeWidgetSettingSchema)
  .max(HOME_WIDGETS.length)
  .refine((list) => new Set(list.map((item) => item.key)).size === list.length, { message: 'each widget once' });

export const saveHomeWidgetsBodySchema = z.strictObject({ widgets: homeWidgetsSchema });

/** The list in order with every widget once: the saved ones first, then any the saved list lacks (shown). */
export function completeHomeWidgets(saved: readonly HomeWidgetSetting[] | null | undefined): HomeWidgetSetting[] {
  const list = [...(saved ?? [])];
  for (const key of HOME_WIDGETS) if (!list.some((item) => item.key === key)) list.push({ key, visible: true });
  return list;
}
