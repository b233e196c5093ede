/** How a sign-in attempt ended, as the login log records and shows it. */
export const LOGIN_OUTCOMES = [
  'success',
  'bad_captcha',
  'unknown_user',
  'bad_password',
  'locked',
  'disabled',
  'must_change_password',
  'too_many_attempts',
  'second_factor_required',
  'bad_second_factor',
  'second_factor_setup_required',
] as const;
export type LoginOutcome = (typeof LOGIN_OUTCOMES)[number];

/** Labels and tag colours of the login outcomes: failures red, lockouts and limits orange. */
export const LOGIN_OUTCOME_LABELS: Record<LoginOutcome, { zh: string; en: string; color: string }> = {
  success: { zh: '成功', en: 'Success', color: 'green' },
  bad_captcha: { zh: '验证码错误', en: 'Wrong image code', color: 'default' },
  unknown_user: { zh: '账号不存在', en: 'Unknown account', color: 'red' },
  bad_password: { zh: '密码错误', en: 'Wrong password', color: 'red' },
  locked: { zh: '账号已锁定', en: 'Account locked', color: 'orange' },
  disabled: { zh: '账号已停用', en: 'Account disabled', color: 'red' },
  must_change_password: { zh: '须修改密码', en: 'Must change password', color: 'blue' },
  too_many_attempts: { zh: '尝试过多', en: 'Too many attempts', color: 'orange' },
  second_factor_required: { zh: '待双重验证', en: 'Second factor asked', color: 'blue' },
  bad_second_factor: { zh: '动态码错误', en: 'Wrong second factor', color: 'red' },
  second_factor_setup_required: { zh: '须设置双重验证', en: 'Two-factor set-up asked', color: 'blue' },
};
