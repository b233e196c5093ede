/**
 * What the generated security suites share: the route table as the running app documents it, the
 * requirement each route derives from the declarations (frames, buttons, user types, scope), the
 * callers of the matrix, the answer checks, and the list of defects known to be fixed elsewhere.
 */
import { INTAKE_PATHS, OPEN_API_PATHS, REPORTS, RESOURCES, frameOf, isInForm, toggleVerb, type ButtonValue, type FieldDef, type ResourceDef, type UserType } from '@campus/contract';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { grants, userSchools, users } from '../../src/db/schema/index.js';
import { getEffectiveGrant, type EffectiveGrant } from '../../src/platform/permissions.js';
import { hashPassword, md5Hex } from '../../src/platform/passwords.js';
import { resolveSchoolScope, type SchoolScope } from '../../src/platform/scope.js';
import type { TestApp } from '../helpers/test-app.js';
import { agentOwnerOfRow, schoolOfRow } from '../resources/fixtures.js';

export type Row = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// The route table
// ---------------------------------------------------------------------------------------------

/** The part of JSON Schema the documented routes use (zod 4 → JSON Schema through the type provider). */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  default?: unknown;
}

export interface RouteEntry {
  method: 'GET' | 'POST';
  url: string;
  /** `${method} ${url}`, the key the tables below use. */
  key: string;
  /** The first path segment after /api/ (the family, report or group) and the second (the verb). */
  group: string;
  verb: string;
  body?: JsonSchema;
  query?: JsonSchema;
  multipart: boolean;
}

interface OpenApiOperation {
  parameters?: { in: string; name: string; required?: boolean; schema: JsonSchema }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

/**
 * Every route the app serves, read from the OpenAPI document the routes' own schemas generate
 * (`app.swagger()`): a family declared tomorrow is in it the moment its routes are registered.
 * Only the documentation pages themselves are not in it.
 */
export function routeTable(t: TestApp): RouteEntry[] {
  const document = t.app.swagger() as { paths: Record<string, Record<string, OpenApiOperation>> };
  const routes: RouteEntry[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [lowerMethod, operation] of Object.entries(operations)) {
      const method = lowerMethod.toUpperCase() as 'GET' | 'POST';
      // The document names the file path of /uploads/* (a wildcard is no OpenAPI parameter): back to the route's own.
      const url = path === '/uploads/{path}' ? '/uploads/*' : path;
      const [group = '', verb = ''] = url.replace(/^\/api\//, '').split('/');
      const queryParams = (operation.parameters ?? []).filter((p) => p.in === 'query');
      const query: JsonSchema | undefined =
        queryParams.length > 0
          ? { type: 'object', properties: Object.fromEntries(queryParams.map((p) => [p.name, p.schema])), required: queryParams.filter((p) => p.required).map((p) => p.name) }
          : undefined;
      const content = operation.requestBody?.content ?? {};
      routes.push({
        method,
        url,
        key: `${method} ${url}`,
        group: url.startsWith('/api/') ? group : 'uploads',
        verb: url.startsWith('/api/') ? verb : '*',
        body: content['application/json']?.schema,
        query,
        multipart: 'multipart/form-data' in content,
      });
    }
  }
  return routes;
}

// ---------------------------------------------------------------------------------------------
// What each route requires, derived from the declarations
// ---------------------------------------------------------------------------------------------

/**
 * The terminals' intake and the developers' Open API: no session, but every call signed (terminals/
 * intake-auth.ts, routes/open-api.ts), so an unsigned call — whoever sends it — is refused with 401
 * and stores nothing.
 */
export const SIGNED_ROUTES: ReadonlySet<string> = new Set([...Object.values(INTAKE_PATHS).map((path) => `POST ${path}`), `GET ${OPEN_API_PATHS.recognitionEvents}`]);

/** The routes that answer without a session: login, captcha, password reset by SMS, health, signed files, the terminals' signed intake. */
export const PUBLIC_ROUTES: ReadonlySet<string> = new Set([
  'GET /api/Account/GetVerificationCode',
  'POST /api/Account/Login_web',
  'POST /api/Account/LoginSecondFactor',
  'POST /api/Account/BeginTwoFactorSetup',
  'POST /api/Account/ConfirmTwoFactorSetup',
  'POST /api/Account/SendSmsCode',
  'POST /api/Account/UpdateUserPassword',
  'GET /api/health',
  'GET /healthz',
  'GET /readyz',
  'GET /uploads/*',
  'GET /api/AppVersion/Latest',
  // A questionnaire's respondents: the signed token in the query or body is the guard (resources/questionnaire-answers.ts).
  'GET /api/Questionnaire/Public/Get',
  'POST /api/Questionnaire/Public/Answer',
  // The parent app's sign-in (app-channel/sign-in-routes.ts): rate-limited like the console's.
  'POST /api/App/SendSignInCode',
  'POST /api/App/SignIn',
  // An electronic album's page-turning view: the signed link in the query is the guard (app-channel/album-routes.ts).
  'GET /album-view/{orderId}',
  // WeChat Pay calls it; the signature is its guard (routes/pay.ts).
  'POST /api/Pay/Notify/WechatPay',
  ...SIGNED_ROUTES,
]);

/**
 * Groups of calls any signed-in user makes about itself (its profile, menu, badges, uploads, table
 * preferences, log-out, its live stream, its home page's figures and widgets: the home page is always held).
 */
const SESSION_GROUPS: ReadonlySet<string> = new Set(['Home', 'User', 'Account', 'File', 'Preference', 'Live', 'Overview', 'HomeWidget']);

/** The hand-written routes guarded by a page: the same frame and button their `requireFrame` names. */
const CUSTOM_FRAME_ROUTES: Readonly<Record<string, { frame: string; button?: ButtonValue; userTypes?: readonly UserType[] }>> = {
  'GET /api/Permission/GetGrant': { frame: 'jurisdictionManage' },
  'GET /api/Permission/SearchAccounts': { frame: 'jurisdictionManage' },
  'GET /api/Permission/GetProbes': { frame: 'jurisdictionManage' },
  'POST /api/Permission/SaveGrant': { frame: 'jurisdictionManage', button: 'update' },
  'POST /api/Permission/ResetUserGrant': { frame: 'jurisdictionManage', button: 'update' },
  'POST /api/Permission/SaveProbes': { frame: 'jurisdictionManage', button: 'update' },
  'POST /api/Permission/ResetUserProbes': { frame: 'jurisdictionManage', button: 'update' },
  'GET /api/Person/Search': { frame: 'personSearch' },
  'POST /api/HomeWidget/Save': { frame: 'homeCustomization', button: 'update' },
  'GET /api/SchoolHoliday/NationalCalendar': { frame: 'holidayManage' },
  'GET /api/DiscernStatistics/Cockpit': { frame: 'jsc' },
  'GET /api/FeverAlert/GetThreshold': { frame: 'userTemperature' },
  'GET /api/Questionnaire/GetResults': { frame: 'questionnaire' },
  'GET /api/Questionnaire/GetLink': { frame: 'questionnaire' },
  'GET /api/Questionnaire/ExportAnswers': { frame: 'questionnaire', button: 'export' },
  // A platform-wide setting: company users only, whatever an agent's grant holds.
  'POST /api/FeverAlert/SaveThreshold': { frame: 'userTemperature', button: 'examine', userTypes: ['company'] },
  'GET /api/Terminal/GetSettings': { frame: 'equipmentManage' },
  'GET /api/CommodityOrder/GetPointsEarning': { frame: 'scallionRiceOrder' },
  // The points parents earn, platform-wide: company users only, like the fever threshold.
  'POST /api/CommodityOrder/SavePointsEarning': { frame: 'scallionRiceOrder', button: 'update', userTypes: ['company'] },
  // Platform-wide terminal settings: company users only, like the fever threshold.
  'POST /api/Terminal/SaveSettings': { frame: 'equipmentManage', button: 'update', userTypes: ['company'] },
  'GET /api/CompanyUser/GetTwoFactorPolicy': { frame: 'userCompany' },
  // The company's sign-in policy: company users only, like the fever threshold.
  'POST /api/CompanyUser/SaveTwoFactorPolicy': { frame: 'userCompany', button: 'password', userTypes: ['company'] },
};

export type Requirement =
  | { kind: 'public' }
  /** A parent app call: a parent's session, which no console caller holds (every console token answers 401). */
  | { kind: 'parent' }
  | { kind: 'session' }
  /** Any of `frames` held, with `button` on that frame when given, by a caller of `userTypes` (all when absent). */
  | { kind: 'frames'; frames: readonly string[]; button?: ButtonValue; userTypes?: readonly UserType[]; family?: ResourceDef; report?: boolean; options?: boolean };

/** The families whose forms or filters (fields, lines, actions, transitions) reference `def`: their pages may list its options. */
function referencingFrames(def: ResourceDef): string[] {
  const references = (fields: Record<string, FieldDef> | undefined): boolean =>
    Object.values(fields ?? {}).some((f) => (f.kind === 'reference' && f.family === def.name && (isInForm(f) || f.filter !== undefined)) || (f.kind === 'lines' && references(f.fields)));
  return Object.values(RESOURCES)
    .filter((other) => references(other.fields) || other.actions?.some((a) => references(a.fields)) || other.workflow?.transitions.some((tr) => references(tr.fields)))
    .flatMap((other) => other.views.map((v) => v.frame));
}

/** The button a family's call needs, from its declaration; null = the page alone; undefined = no such verb. */
function buttonOfVerb(def: ResourceDef, verb: string): ButtonValue | null | undefined {
  switch (verb) {
    case 'Search':
    case 'Get':
    case 'History':
    case 'Tree':
    case 'Options':
      return null;
    case 'Add':
      return 'add';
    case 'Update':
    case 'Move':
      return 'update';
    case 'BatchDelete':
      return 'delete';
    case 'Export':
      return 'export';
    case 'Hide':
      return 'hide';
    case 'ImportTemplate':
    case 'ImportPreview':
    case 'Import':
      return def.import ? 'import' : undefined;
  }
  // A link with attributes: Get{verb} needs the page, Save{verb} the update button.
  for (const field of Object.values(def.fields)) {
    const linkVerb = field.kind === 'reference' ? field.link?.attributes?.verb : undefined;
    if (linkVerb && verb === `Get${linkVerb}`) return null;
    if (linkVerb && verb === `Save${linkVerb}`) return 'update';
  }
  return (
    def.toggles?.find((toggle) => toggleVerb(toggle.field) === verb)?.button ??
    def.actions?.find((action) => action.verb === verb)?.button ??
    def.workflow?.transitions.find((transition) => transition.verb === verb || (transition.batch === true && `Batch${transition.verb}` === verb))?.button
  );
}

/** What a route requires; undefined for a route no rule explains (the matrix refuses those). */
export function requirementOf(route: RouteEntry): Requirement | undefined {
  if (PUBLIC_ROUTES.has(route.key)) return { kind: 'public' };
  if (route.group === 'App') return { kind: 'parent' };
  const custom = CUSTOM_FRAME_ROUTES[route.key];
  if (custom) return { kind: 'frames', frames: [custom.frame], button: custom.button, userTypes: custom.userTypes };
  // An older path a log family declares for its Search (`log.aliases`) requires what the Search does.
  const aliased = Object.values(RESOURCES).find((family) => route.method === 'POST' && family.log?.aliases?.some((alias) => alias.path === route.url));
  if (aliased) return { kind: 'frames', frames: aliased.views.map((v) => v.frame), userTypes: aliased.userTypes, family: aliased };
  const def = RESOURCES[route.group];
  if (def) {
    const button = buttonOfVerb(def, route.verb);
    if (button === undefined) return undefined;
    const frames = def.views.map((v) => v.frame);
    if (route.verb === 'Options') return { kind: 'frames', frames: [...new Set([...frames, ...referencingFrames(def)])], userTypes: def.userTypes, family: def, options: true };
    return { kind: 'frames', frames, button: button ?? undefined, userTypes: def.userTypes, family: def };
  }
  const report = REPORTS[route.group];
  if (report) {
    if (!['Search', 'GetSummary', 'Export'].includes(route.verb)) return undefined;
    return { kind: 'frames', frames: report.views.map((v) => v.frame), button: route.verb === 'Export' ? 'export' : undefined, report: true };
  }
  if (SESSION_GROUPS.has(route.group)) return { kind: 'session' };
  return undefined;
}

/** Whether a grant satisfies a frames requirement (any listed frame, with the button on it). */
export function grantAllows(grant: EffectiveGrant, requirement: Extract<Requirement, { kind: 'frames' }>, type: UserType): boolean {
  if (requirement.userTypes && !requirement.userTypes.includes(type)) return false;
  return requirement.frames.some((frame) => {
    const held = grant.get(frameOf(frame).fixedId);
    return held !== undefined && (requirement.button === undefined || held.has(requirement.button));
  });
}

// ---------------------------------------------------------------------------------------------
// Callers
// ---------------------------------------------------------------------------------------------

export type RoleName = 'anonymous' | 'companyAdmin' | 'companyNoFrame' | 'salesLeader' | 'salesMember' | 'agent' | 'child' | 'external';

export interface Caller {
  role: RoleName;
  loginName?: string;
  token?: string;
  id: number;
  type?: UserType;
  parentId: number | null;
  grant: EffectiveGrant;
  scope: SchoolScope;
}

/** The login of each role of the matrix: demo accounts, and a company account holding only the home page. */
export const ROLE_LOGINS: Readonly<Record<Exclude<RoleName, 'anonymous'>, string>> = {
  companyAdmin: 'admin',
  companyNoFrame: 'sec-noframe',
  salesLeader: 'sales1',
  salesMember: 'sales2',
  agent: 'agent1',
  child: 'child1',
  external: 'external1',
};

/** Creates an account straight in the database (no route under test is involved); answers its id. */
export async function createAccount(
  t: TestApp,
  account: { loginName: string; type: UserType; parentId?: number; schoolIds?: number[]; frames?: readonly string[] },
): Promise<number> {
  const [row] = await t.db
    .insert(users)
    .values({ loginName: account.loginName, passwordHash: await hashPassword(md5Hex(`Sec@${account.loginName}`)), type: account.type, name: account.loginName, parentId: account.parentId ?? null })
    .returning({ id: users.id });
  const id = row!.id;
  if (account.schoolIds?.length) await t.db.insert(userSchools).values(account.schoolIds.map((schoolId) => ({ userId: id, schoolId })));
  if (account.frames) {
    // A grant per user replaces the type's default: only these frames, with every button they declare.
    await t.db.insert(grants).values(account.frames.map((frame) => ({ subjectType: 'user' as const, userId: id, frameId: frameOf(frame).fixedId, buttons: [...frameOf(frame).buttons] })));
  }
  return id;
}

export const accountPassword = (loginName: string) => `Sec@${loginName}`;

/** Logs in every role of the matrix and reads its effective grant and scope (the oracles of the expectations). */
export async function matrixCallers(t: TestApp): Promise<Caller[]> {
  await createAccount(t, { loginName: ROLE_LOGINS.companyNoFrame, type: 'company', frames: ['index'] });
  const callers: Caller[] = [{ role: 'anonymous', id: 0, parentId: null, grant: new Map(), scope: { kind: 'schools', schoolIds: [] } }];
  for (const [role, loginName] of Object.entries(ROLE_LOGINS) as [Exclude<RoleName, 'anonymous'>, string][]) {
    const [user] = await t.db.select({ id: users.id, type: users.type, parentId: users.parentId }).from(users).where(eq(users.loginName, loginName));
    if (!user) throw new Error(`no account ${loginName}`);
    const token = loginName.startsWith('sec-') ? await t.login(loginName, accountPassword(loginName)) : await t.loginAs(loginName);
    callers.push({ role, loginName, token, id: user.id, type: user.type, parentId: user.parentId, grant: await getEffectiveGrant(t.db, user), scope: await resolveSchoolScope(t.db, user) });
  }
  return callers;
}

/**
 * Whether a row lies in a caller's data scope (PRODUCT section 1), answering what the server must:
 * to `read` it (Search, Get) or to `manage` it (every call that writes). They differ for rows an
 * agent owns outside its schools (`agentOwner`: its fund account), which the agent and its child
 * accounts read and never write.
 */
export async function rowInScope(t: TestApp, caller: Caller, def: ResourceDef, row: Row, purpose: 'read' | 'manage' = 'read'): Promise<boolean> {
  const scope = def.scope;
  if (scope.via === 'global') return true;
  if (scope.via === 'self' || scope.via === 'school') {
    if (caller.scope.kind === 'all' || caller.scope.schoolIds.includes(schoolOfRow(def, row) as number)) return true;
    const callerAgent = caller.type === 'agent' ? caller.id : caller.type === 'child' ? caller.parentId : null;
    return purpose === 'read' && callerAgent !== null && (await agentOwnerOfRow(t, def, row)) === callerAgent;
  }
  // Accounts: company staff all; an agent its child accounts and the external accounts whose every
  // school is its own; a child account those external accounts; nobody else any.
  if (caller.type === 'company') return true;
  const [account] = await t.db.select({ type: users.type, parentId: users.parentId }).from(users).where(eq(users.id, row.id as number));
  if (!account) return false;
  if (caller.type === 'agent' && account.type === 'child') return account.parentId === caller.id;
  if ((caller.type === 'agent' || caller.type === 'child') && account.type === 'external' && caller.scope.kind === 'schools') {
    const bound = (await t.db.select({ schoolId: userSchools.schoolId }).from(userSchools).where(eq(userSchools.userId, row.id as number))).map((b) => b.schoolId);
    const callerSchools = caller.scope.schoolIds;
    return bound.length > 0 && bound.every((id) => callerSchools.includes(id));
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

/** Traces of a stack or of the server's files in an answer. */
const STACK_TRACE = /\n\s+at |\bat [\w$.<>]+ \(|node_modules|\/src\/[\w/-]+\.ts|\.ts:\d+:\d+|\.js:\d+:\d+/;

/**
 * What is wrong with an answer whatever its status, or undefined: a 5xx, a JSON answer outside the
 * envelope `{ code, message, data }`, an error that is not JSON, or a stack trace anywhere.
 */
export function answerProblem(response: LightMyRequestResponse): string | undefined {
  const head = `${response.statusCode} ${response.body.slice(0, 300)}`;
  if (response.statusCode >= 500) return `server error: ${head}`;
  const type = String(response.headers['content-type'] ?? '');
  if (STACK_TRACE.test(response.body.slice(0, 100_000)) && !type.includes('spreadsheetml')) return `stack trace: ${head}`;
  if (response.statusCode >= 400 || type.includes('application/json')) {
    if (!type.includes('application/json')) return `error outside JSON (${type}): ${head}`;
    let body: unknown;
    try {
      body = response.json();
    } catch {
      return `unparsable JSON: ${head}`;
    }
    const envelope = body as { code?: unknown; message?: unknown; data?: unknown };
    if (typeof envelope !== 'object' || envelope === null || !('code' in envelope) || typeof envelope.message !== 'string' || !('data' in envelope)) return `not the envelope: ${head}`;
  }
  return undefined;
}
