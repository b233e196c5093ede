/** Business constants of SEED-SPEC section 9, shared by server and web. */
export const PREVENT_DOUBLE_CLICK_MS = 3000;
export const LAYOUT_BASE_WIDTH = 1920;
export const SIDE_PANEL_WIDTH = 217;
/** The tab strip is the window width minus this. */
export const TAB_STRIP_OFFSET = 325;
export const MENU_FETCH_DELAY_MS = 500;
export const PERMISSION_RETRY_MS = 600;
export const COOKIE_EXPIRY_DAYS = 1;
export const DATE_FORMAT = 'YYYY-MM-DD';
export const WEEK_START = 1; // Monday
export const CALENDAR_CELLS = 42;
export const SCHOOL_SEARCH_DEFAULTS = { licenseKeyRequired: -1, schoolType: 0, state: -1 } as const;
/** Session storage key under which the whole session (token and profile) is kept. */
export const SESSION_STORAGE_KEY = 'campus-ops-session';
export const TOAST_SECONDS = 5;
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 200;
export const MAX_EXPORT_COUNT = 100_000;
/** Searches count and page through at most this many rows: a larger total shows as "10,000+", deeper pages are refused. */
export const SEARCH_COUNT_CAP = 10_000;
/** Province/city/area picker placeholders that mean "no value" in address filters. */
export const ADDRESS_PLACEHOLDERS = ['省', '市', '区', '省份', '城市', '区县', '请选择', 'Province', 'City', 'Area', '-1', ''] as const;
export const TIME_ZONE = 'Asia/Shanghai';
/**
 * Sent as `X-Background: 1` with calls the user did not ask for (badge polls, auto-refreshing lists):
 * the server serves them without counting them as activity, so an open tab still goes idle (ASVS 3.3.2).
 */
export const BACKGROUND_REQUEST_HEADER = 'X-Background';
