import { messageText } from '../messages.js';
import { z } from 'zod';
import { phoneSchema } from '../phones.js';

const md5Hex = z.string().regex(/^[a-f0-9]{32}$/i, messageText('validation.md5'));
const phone = phoneSchema('mobile');
const smsCode = z.string().regex(/^\d{6}$/, messageText('validation.smsCode'));

export const captchaResponseSchema = z.object({ vcId: z.string(), image: z.string() });
export type CaptchaResponse = z.infer<typeof captchaResponseSchema>;

export const loginRequestSchema = z.object({
  userName: z.string().trim().min(1).max(64),
  password: md5Hex,
  vcId: z.string().min(1).max(64),
  vcCode: z.string().trim().min(1).max(16),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const loginResponseSchema = z.object({
  Token: z.string(),
  SchoolName: z.string(),
  UserName: z.string(),
  UserId: z.number(),
  SchoolId: z.number(),
  ClassId: z.number(),
  TokenTime: z.string(),
  Frames: z.array(z.object({ ID: z.number() })),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** Data of code 601: which account must verify its phone before continuing. */
export const mustChangePasswordSchema = z.object({ userName: z.string(), phoneMasked: z.string() });

export const sendSmsCodeRequestSchema = z.object({
  userName: z.string().trim().min(1).max(64),
  phoneNum: phone,
});

export const updateUserPasswordRequestSchema = z.object({
  userName: z.string().trim().min(1).max(64),
  phoneNum: phone,
  smsCode,
  newPassword: md5Hex,
});

export const loginUserInfoSchema = z.object({
  id: z.number(),
  loginName: z.string(),
  name: z.string(),
  type: z.string(),
  phoneNum: z.string().nullable(),
  company: z.string().nullable(),
  sellerPosition: z.string().nullable(),
  servicePhone1: z.string().nullable(),
  servicePhone2: z.string().nullable(),
  servicePhone3: z.string().nullable(),
  email: z.string().nullable(),
  hasRefundPassword: z.boolean(),
  /** Company users holding refundManage's `refund` button keep a refund password; others never see the card. */
  canSetRefundPassword: z.boolean(),
  /** TOTP two-factor sign-in: whether the account may turn it on, whether it is on, recovery codes left. */
  twoFactor: z.object({ available: z.boolean(), enabled: z.boolean(), recoveryCodesLeft: z.number() }),
  schoolName: z.string(),
  lastLoginAt: z.string().nullable(),
});
export type LoginUserInfo = z.infer<typeof loginUserInfoSchema>;

const optionalServiceLine = z.union([phoneSchema('serviceLine'), z.literal('')]).optional();

export const updateLoginUserInfoRequestSchema = z.object({
  name: z.string().trim().min(1).max(50),
  company: z.string().trim().max(100).optional(),
  email: z.union([z.email(), z.literal('')]).optional(),
  servicePhone1: optionalServiceLine,
  servicePhone2: optionalServiceLine,
  servicePhone3: optionalServiceLine,
});
export type UpdateLoginUserInfoRequest = z.infer<typeof updateLoginUserInfoRequestSchema>;

export const userSendSmsCodeRequestSchema = z.object({
  purpose: z.enum(['password', 'refundPassword']),
});

export const updateLoginUserPasswordRequestSchema = z.object({
  oldPassword: md5Hex,
  newPassword: md5Hex,
  smsCode,
});

export const updateRefundPasswordRequestSchema = z.object({
  loginPassword: md5Hex,
  refundPassword: md5Hex,
  smsCode,
});

/** Answer of User/SendSmsCode: where the code went, masked (e.g. 138****0001). */
export const smsCodeSentSchema = z.object({ phoneMasked: z.string() });
export type SmsCodeSent = z.infer<typeof smsCodeSentSchema>;

/** Answer of /api/health. */
export const healthSchema = z.object({ status: z.literal('ok'), database: z.enum(['pglite', 'postgres']) });

/** Account types that may turn on TOTP two-factor sign-in (ASVS 4.3.1: administrative accounts). */
export const TWO_FACTOR_ACCOUNT_TYPES: readonly string[] = ['company'];

/** Data of code 602: the challenge the second login step answers, and until when it is valid. */
export const secondFactorChallengeSchema = z.object({ challenge: z.string(), expiresAt: z.string() });
export type SecondFactorChallenge = z.infer<typeof secondFactorChallengeSchema>;

/** A six-digit TOTP code or a recovery code (`xxxxx-xxxxx`). */
const secondFactorCode = z.string().trim().min(6).max(16);

export const loginSecondFactorRequestSchema = z.object({
  challenge: z.string().min(1).max(64),
  code: secondFactorCode,
});
export type LoginSecondFactorRequest = z.infer<typeof loginSecondFactorRequestSchema>;

export const beginTotpRequestSchema = z.object({ password: md5Hex });

/** Shown once at enrolment: the secret (base32, for typing in) and the otpauth:// address of the QR code. */
export const totpEnrolmentSchema = z.object({ secret: z.string(), uri: z.string() });
export type TotpEnrolment = z.infer<typeof totpEnrolmentSchema>;

export const confirmTotpRequestSchema = z.object({ code: z.string().trim().regex(/^\d{6}$/, messageText('validation.totpCode')) });

/** Shown once: the one-time recovery codes. */
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

export const disableTotpRequestSchema = z.object({ password: md5Hex, code: secondFactorCode });

/**
 * Data of code 603: the password was right, two-factor sign-in is mandatory for the account and it has
 * no authenticator yet; the login page sets one up with this challenge before any session starts.
 */
export const twoFactorSetupChallengeSchema = secondFactorChallengeSchema;

export const beginTwoFactorSetupRequestSchema = z.object({ challenge: z.string().min(1).max(64) });

export const confirmTwoFactorSetupRequestSchema = z.object({
  challenge: z.string().min(1).max(64),
  code: z.string().trim().regex(/^\d{6}$/, messageText('validation.totpCode')),
});

/** The end of a set-up at sign-in: the session (as Login_web answers it) and the recovery codes, shown once. */
export const twoFactorSetupLoginSchema = z.object({ login: loginResponseSchema, recoveryCodes: z.array(z.string()) });
export type TwoFactorSetupLogin = z.infer<typeof twoFactorSetupLoginSchema>;

/** The company's two-factor policy: when `required`, company administrators sign in only with an authenticator. */
export const twoFactorPolicySchema = z.object({ required: z.boolean() });
export type TwoFactorPolicy = z.infer<typeof twoFactorPolicySchema>;
