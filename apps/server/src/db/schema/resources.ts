/**
 * Tables of the declared families, built from the contract's one list (FAMILY_LIST): a new family
 * needs no line here — `npm run db:generate -w apps/server` finds its table through
 * drizzle-schema.cjs, which hands drizzle-kit every table built below. A family whose table holds
 * more than its declaration (a sealed secret, a cascade) names those columns in EXTRA_COLUMNS.
 */
import {
  FAMILY_LIST,
  ParentNotice,
  PushDelivery,
  ServiceReceiver,
  StudentService,
  AgentArea,
  AgentFund,
  AgentFundEntry,
  AppChargeItem,
  AppContent,
  AppCooperationPlatform,
  AppFrame,
  AppMusic,
  AppNoticeTemplate,
  AppStartupPage,
  AppVersion,
  ComprehensiveCharge,
  Developer,
  DeveloperDelivery,
  Device,
  DeviceClass,
  DeviceDelivery,
  DeviceWarranty,
  EducationDirectory,
  FeverAlert,
  License,
  LiveFeedback,
  MaintenanceTicket,
  Nvr,
  Order,
  Parent,
  PaymentProviderCall,
  PaymentRecord,
  PickUpPerson,
  PlatformLog,
  Poster,
  Question,
  Questionnaire,
  RecognitionRecord,
  Refund,
  SalesArea,
  School,
  SchoolCharge,
  SchoolClass,
  SchoolHoliday,
  ScreenChatContent,
  ServiceConfig,
  Student,
  SysNotice,
  Teacher,
  Terminal,
  TerminalAppUpgrade,
  TerminalAppVersion,
  TerminalCommand,
  TerminalConfig,
  TerminalLog,
  UserFeedback,
  UserHelp,
  type FieldDef,
  type ResourceDef,
} from '@campus/contract';
import { integer, text, type PgColumnBuilderBase } from 'drizzle-orm/pg-core';
import { linesTable } from './lines-table.js';
import { resourceTable, type ReferenceTarget, type ResourceTable } from './table.js';
import { timestamptz } from './columns.js';
import { loginAttempts, operationLog } from './logs.js';
import { salesTeams } from './sales.js';
import { smsOutbox } from './sms.js';
import { users } from './users.js';

const familyTables = new Map<string, ResourceTable>();

/** Families that are plain tables rather than declarations, but can be referenced. */
const referenceableTables = {
  User: () => users.id,
  CompanyUser: () => users.id,
  ExternalUser: () => users.id,
  ChildUser: () => users.id,
  SalesTeam: () => salesTeams.id,
} as const;

/**
 * Families stored in hand-written tables (the accounts, the sales teams): the engine serves them like
 * any family, reading their columns by field name. Looked up lazily: these tables import this module.
 */
const handWrittenTables: Readonly<Record<string, () => unknown>> = {
  CompanyUser: () => users,
  ExternalUser: () => users,
  ChildUser: () => users,
  SalesTeam: () => salesTeams,
  LoginLog: () => loginAttempts,
  OperationLog: () => operationLog,
  SmsOutbox: () => smsOutbox,
};

/** Foreign keys resolve lazily: tables reference each other in any order. */
const foreignKey = (field: FieldDef): ReferenceTarget | undefined => {
  if (field.kind !== 'reference') return undefined;
  const plain = referenceableTables[field.family as keyof typeof referenceableTables];
  if (plain) return plain;
  return () => {
    const table = familyTables.get(field.family);
    if (!table) throw new Error(`reference to undeclared family ${field.family}`);
    return table[field.key ?? 'id'];
  };
};

function register(table: ResourceTable, name: string): ResourceTable {
  familyTables.set(name, table);
  return table;
}

const lineTables = new Map<string, ResourceTable>();

/** Builds and registers the table of a family's lines field (an order's items). */
function registerLines(def: ResourceDef, field: string): ResourceTable {
  const table = linesTable(def, field, foreignKey, () => familyTable(def.name).id);
  lineTables.set(`${def.name}.${field}`, table);
  return table;
}

/** A required reference whose rows go with the referenced row. */
const cascadeTo = (family: string) =>
  integer(`${family === 'Parent' ? 'parent' : 'student'}_id`)
    .notNull()
    .references(() => familyTable(family).id, { onDelete: 'cascade' });

/** Columns beyond the declaration, by family: never declared, so never answered or accepted. */
const EXTRA_COLUMNS: Readonly<Record<string, () => Record<string, PgColumnBuilderBase>>> = {
  School: () => ({
    examineRemark: text('examine_remark'),
    examinedAt: timestamptz('examined_at'),
    adminPasswordHash: text('admin_password_hash'),
  }),
  Developer: () => ({ secretSealed: text('secret_sealed') }),
  DeveloperDelivery: () => ({
    // A developer's delivery log goes with it (the engine's references restrict deletes).
    developerId: integer('developer_id')
      .notNull()
      .references(() => familyTable('Developer').id, { onDelete: 'cascade' }),
  }),
  // A parent's or child's bindings, inbox and pushes go with them (the engine's references restrict deletes).
  StudentService: () => ({ studentId: cascadeTo('Student').unique('student_services_student_id_unique') }),
  ServiceReceiver: () => ({ parentId: cascadeTo('Parent'), studentId: cascadeTo('Student') }),
  ParentNotice: () => ({ parentId: cascadeTo('Parent'), studentId: cascadeTo('Student') }),
  PushDelivery: () => ({ parentId: cascadeTo('Parent') }),
  Terminal: () => ({
    // AES-256-GCM of the device's secret (terminals/secrets.ts): never a declared field, so never answered.
    secretSealed: text('secret_sealed'),
    // The highest event serial the device has sent: a later one beyond it + 1 opens a gap (terminal_serial_gaps).
    lastEventSerial: integer('last_event_serial').notNull().default(0),
  }),
};

/** Registers the table of a family declared outside FAMILY_LIST (engine tests declare small families of their own). */
export const registerFamilyTable = (def: ResourceDef, table: ResourceTable): ResourceTable => register(table, def.name);

for (const def of FAMILY_LIST) {
  if (handWrittenTables[def.name]) continue;
  register(resourceTable(def, foreignKey, EXTRA_COLUMNS[def.name]?.()), def.name);
  for (const [field, definition] of Object.entries(def.fields)) if (definition.kind === 'lines') registerLines(def, field);
}

/** Every table built from the declarations: drizzle-kit reads them all (drizzle-schema.cjs). */
export function declaredTables(): ResourceTable[] {
  return [...familyTables.values(), ...lineTables.values()];
}

/** The table of a declared family. */
export function familyTable(name: string): ResourceTable {
  const table = familyTables.get(name) ?? (handWrittenTables[name]?.() as ResourceTable | undefined);
  if (!table) throw new Error(`no table for family ${name}: add it to db/schema/resources.ts`);
  return table;
}

/** The table of a family's lines field. */
export function lineTable(def: ResourceDef, field: string): ResourceTable {
  const table = lineTables.get(`${def.name}.${field}`);
  if (!table) throw new Error(`no table for ${def.name}.${field}: add it to db/schema/resources.ts`);
  return table;
}

// The tables custom code reads by name.
export const schools = familyTable(School.name);
export const schoolClasses = familyTable(SchoolClass.name);
export const deviceClasses = familyTable(DeviceClass.name);
export const devices = familyTable(Device.name);
export const deviceDeliveries = familyTable(DeviceDelivery.name);
export const deviceWarranties = familyTable(DeviceWarranty.name);
export const licenses = familyTable(License.name);
export const students = familyTable(Student.name);
export const parents = familyTable(Parent.name);
export const teachers = familyTable(Teacher.name);
export const pickUpPersons = familyTable(PickUpPerson.name);
export const salesAreas = familyTable(SalesArea.name);
export const agentAreas = familyTable(AgentArea.name);
export const maintenanceTickets = familyTable(MaintenanceTicket.name);
export const recognitionRecords = familyTable(RecognitionRecord.name);
export const feverAlerts = familyTable(FeverAlert.name);
export const orders = familyTable(Order.name);
export const orderItems = lineTable(Order, 'items');
export const appVersions = familyTable(AppVersion.name);
export const nvrs = familyTable(Nvr.name);
export const nvrChannels = lineTable(Nvr, 'channels');
export const schoolHolidays = familyTable(SchoolHoliday.name);
export const platformLogs = familyTable(PlatformLog.name);
export const refunds = familyTable(Refund.name);
export const paymentProviderCalls = familyTable(PaymentProviderCall.name);
export const terminalAppVersions = familyTable(TerminalAppVersion.name);
export const terminalAppUpgrades = familyTable(TerminalAppUpgrade.name);
export const terminalUpgradeTargets = lineTable(TerminalAppUpgrade, 'targets');
export const developers = familyTable(Developer.name);
export const developerDeliveryAttempts = familyTable(DeveloperDelivery.name);
export const educationDirectories = familyTable(EducationDirectory.name);
export const terminals = familyTable(Terminal.name);
export const terminalLogs = familyTable(TerminalLog.name);
export const terminalConfigs = familyTable(TerminalConfig.name);
export const terminalCommands = familyTable(TerminalCommand.name);
export const appChargeItems = familyTable(AppChargeItem.name);
export const serviceConfigs = familyTable(ServiceConfig.name);
export const serviceConfigSplitRules = lineTable(ServiceConfig, 'splitRules');
export const paymentRecords = familyTable(PaymentRecord.name);
export const agentFundAccounts = familyTable(AgentFund.name);
export const agentFundEntries = familyTable(AgentFundEntry.name);
export const schoolCharges = familyTable(SchoolCharge.name);
export const comprehensiveCharges = familyTable(ComprehensiveCharge.name);
export const comprehensiveChargeItems = lineTable(ComprehensiveCharge, 'items');
export const userFeedbacks = familyTable(UserFeedback.name);
export const liveFeedbacks = familyTable(LiveFeedback.name);
export const sysNotices = familyTable(SysNotice.name);
export const appNoticeTemplates = familyTable(AppNoticeTemplate.name);
export const appContents = familyTable(AppContent.name);
export const userHelps = familyTable(UserHelp.name);
export const commonQuestions = familyTable(Question.name);
export const appStartupPages = familyTable(AppStartupPage.name);
export const posters = familyTable(Poster.name);
export const appFrames = familyTable(AppFrame.name);
export const screenChatContents = familyTable(ScreenChatContent.name);
export const appCooperationPlatforms = familyTable(AppCooperationPlatform.name);
export const appMusics = familyTable(AppMusic.name);
export const questionnaires = familyTable(Questionnaire.name);
export const questionnaireQuestions = lineTable(Questionnaire, 'questions');
export const studentServices = familyTable(StudentService.name);
export const serviceReceivers = familyTable(ServiceReceiver.name);
export const parentNotices = familyTable(ParentNotice.name);
export const pushDeliveries = familyTable(PushDelivery.name);
