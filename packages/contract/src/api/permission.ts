/**
 * Calls of jurisdictionManage (grants and visibility probes per user type and per user), the login
 * log, and the caller's own sessions.
 */
import { messageText } from '../messages.js';
import { z } from 'zod';
import { BUTTON_VALUES } from '../menu.js';
import { idSchema, strictIdSchema } from '../integer-schemas.js';
import { userTypeSchema, visibilityProbesSchema } from '../user-schemas.js';

/** Whose grant: a user type (the defaults) or one account (its override); exactly one of the two. */
export const grantSubjectQuerySchema = z
  .object({ userType: userTypeSchema.optional(), userId: idSchema.optional() })
  .refine((subject) => (subject.userType === undefined) !== (subject.userId === undefined), {
    message: messageText('validation.userTypeOrUserId'),
    path: ['userType'],
  });
export type GrantSubjectQuery = z.infer<typeof grantSubjectQuerySchema>;

export const grantFrameSchema = z.object({
  frameId: strictIdSchema,
  buttons: z.array(z.enum(BUTTON_VALUES)).max(BUTTON_VALUES.length),
});
export type GrantFrame = z.infer<typeof grantFrameSchema>;

export const grantButtonNodeSchema = z.object({
  value: z.enum(BUTTON_VALUES),
  granted: z.boolean(),
  /** Whether the caller may tick it (an agent only what it holds itself). */
  grantable: z.boolean(),
});

export const grantFrameNodeSchema = z.object({
  fixedId: z.number(),
  index: z.string(),
  title: z.string(),
  titleEn: z.string(),
  granted: z.boolean(),
  grantable: z.boolean(),
  /** index and personalInformation: every account holds them, they cannot be taken away. */
  isAlwaysAllowed: z.boolean(),
  buttons: z.array(grantButtonNodeSchema),
});
export type GrantFrameNode = z.infer<typeof grantFrameNodeSchema>;

export const grantGroupNodeSchema = z.object({
  id: z.number(),
  key: z.string(),
  title: z.string(),
  titleEn: z.string(),
  frames: z.array(grantFrameNodeSchema),
});
export type GrantGroupNode = z.infer<typeof grantGroupNodeSchema>;

export const grantAccountSchema = z.object({
  id: z.number(),
  loginName: z.string(),
  name: z.string(),
  type: userTypeSchema,
  parentId: z.number().nullable(),
  enabled: z.boolean(),
});
export type GrantAccount = z.infer<typeof grantAccountSchema>;

/** Answer of GetGrant: the 8 groups > frames > buttons, what is granted and what may be ticked. */
export const grantTreeSchema = z.object({
  userType: userTypeSchema,
  /** The account, when the grant of one user was asked for. */
  user: grantAccountSchema.nullable(),
  /** For a user: whether it has its own grant (else it holds its type's grant, shown here). */
  isOverride: z.boolean(),
  groups: z.array(grantGroupNodeSchema),
});
export type GrantTree = z.infer<typeof grantTreeSchema>;

/** Body of SaveGrant: the whole new grant, replacing the old one in one transaction. */
export const saveGrantRequestSchema = z
  .object({
    userType: userTypeSchema.optional(),
    userId: strictIdSchema.optional(),
    frames: z.array(grantFrameSchema).max(500),
  })
  .refine((subject) => (subject.userType === undefined) !== (subject.userId === undefined), {
    message: messageText('validation.userTypeOrUserId'),
    path: ['userType'],
  });
export type SaveGrantRequest = z.infer<typeof saveGrantRequestSchema>;

export const resetUserGrantRequestSchema = z.object({ userId: strictIdSchema });

/** Query of SearchAccounts: the accounts whose grant the caller may edit. */
export const searchAccountsQuerySchema = z.object({
  keyword: z.string().trim().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});

export const configurableProbesSchema = visibilityProbesSchema.omit({ isAgent: true });
export type ConfigurableProbes = z.infer<typeof configurableProbesSchema>;
export const CONFIGURABLE_PROBE_NAMES = Object.keys(configurableProbesSchema.shape) as (keyof ConfigurableProbes)[];

/** Answer of GetProbes: the values in force and, for a user, which ones its own setting overrides. */
export const probeSettingsSchema = z.object({
  values: configurableProbesSchema,
  /** For a user: its own values (the rest come from its type); for a type: empty. */
  overrides: configurableProbesSchema.partial(),
});
export type ProbeSettings = z.infer<typeof probeSettingsSchema>;

/** Body of SaveProbes: a type's values replace the type's; a user's become its overrides. */
export const saveProbesRequestSchema = z
  .object({
    userType: userTypeSchema.optional(),
    userId: strictIdSchema.optional(),
    values: configurableProbesSchema.partial(),
  })
  .refine((subject) => (subject.userType === undefined) !== (subject.userId === undefined), {
    message: messageText('validation.userTypeOrUserId'),
    path: ['userType'],
  });
export type SaveProbesRequest = z.infer<typeof saveProbesRequestSchema>;


/** One of the caller's sessions (personalInformation). */
export const sessionInfoSchema = z.object({
  id: z.number(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  ip: z.string().nullable(),
  /** The raw User-Agent header, for the tooltip. */
  userAgent: z.string().nullable(),
  /** The browser and its major version in words (`Chrome 131`); null when the header names none. */
  browser: z.string().nullable(),
  /** The operating system in words (`Windows 10`, `iOS 17.5`); null when unknown. */
  system: z.string().nullable(),
  device: z.enum(['desktop', 'mobile', 'tablet', 'tv']).nullable(),
  isCurrent: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

/** Query of User/GetSessions: a page of the caller's sessions, this one always first. */
export const sessionsQuerySchema = z.object({
  pageIndex: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(10),
});
export type SessionsQuery = z.infer<typeof sessionsQuerySchema>;

/** Answer of User/GetSessions. */
export const sessionPageSchema = z.object({ items: z.array(sessionInfoSchema), total: z.number() });
export type SessionPage = z.infer<typeof sessionPageSchema>;

export const endSessionRequestSchema = z.object({ id: strictIdSchema });

/** One member as SalesTeam/GetMembers answers it (the engine's call of `SalesTeam.memberIds`, a link with levels). */
export interface SalesTeamMember {
  userId: number;
  loginName: string;
  name: string;
  sellerPosition: string | null;
  level: number;
}
