/** Paths of the named calls (SEED-SPEC section 7 keeps the Account/Home/User paths exact). */
export const API_PATHS = {
  captcha: '/api/Account/GetVerificationCode',
  login: '/api/Account/Login_web',
  logout: '/api/Account/Logout',
  accountSendSmsCode: '/api/Account/SendSmsCode',
  accountUpdatePassword: '/api/Account/UpdateUserPassword',
  navigationTree: '/api/Home/GetNavigationTree',
  badgeCounts: '/api/Home/GetBadgeCounts',
  homeNotices: '/api/Home/GetNotices',
  signCardMode: '/api/Home/GetSignCardMode',
  visibilityProbes: '/api/User/GetVisibilityProbes',
  loginUserInfo: '/api/User/GetLoginUserInfo',
  updateLoginUserInfo: '/api/User/UpdateLoginUserInfo',
  userSendSmsCode: '/api/User/SendSmsCode',
  updateLoginUserPassword: '/api/User/UpdateLoginUserPassword',
  updateRefundPassword: '/api/User/UpdateRefundPassword',
  sessions: '/api/User/GetSessions',
  endSession: '/api/User/EndSession',
  endOtherSessions: '/api/User/EndOtherSessions',
  getGrant: '/api/Permission/GetGrant',
  saveGrant: '/api/Permission/SaveGrant',
  resetUserGrant: '/api/Permission/ResetUserGrant',
  searchAccounts: '/api/Permission/SearchAccounts',
  getProbes: '/api/Permission/GetProbes',
  saveProbes: '/api/Permission/SaveProbes',
  resetUserProbes: '/api/Permission/ResetUserProbes',
  salesTeamMembers: '/api/SalesTeam/GetMembers',
  feverThreshold: '/api/FeverAlert/GetThreshold',
  saveFeverThreshold: '/api/FeverAlert/SaveThreshold',
  terminalSettings: '/api/Terminal/GetSettings',
  saveTerminalSettings: '/api/Terminal/SaveSettings',
  saveSalesTeamMembers: '/api/SalesTeam/SaveMembers',
  uploadImages: '/api/File/UploadImgs',
  uploadVideos: '/api/File/UploadVideos',
  uploadAudios: '/api/File/UploadAudios',
  uploadPackages: '/api/File/UploadPackages',
  appVersionLatest: '/api/AppVersion/Latest',
  health: '/api/health',
  accountOptions: '/api/User/Options',
  loginSecondFactor: '/api/Account/LoginSecondFactor',
  beginTotp: '/api/User/BeginTotp',
  confirmTotp: '/api/User/ConfirmTotp',
  disableTotp: '/api/User/DisableTotp',
} as const;

/** Plain (undeclared) families that still answer GET /api/{Family}/Options for reference pickers. */
export const PLAIN_REFERENCE_FAMILIES = ['User'] as const;

/** Query of GET /api/User/Options: accounts of one type, as far as the caller may name them. */
// company: the assignee of a maintenance ticket (only company staff may name one: see nameableAccounts).
export const ACCOUNT_OPTION_TYPES = ['agent', 'sales', 'company'] as const;
