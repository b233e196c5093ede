/**
 * Tables of the declared families, built from the contract's one list (FAMILY_LIST): a new family
 * needs no line here — `npm run db:generate -w apps/server` finds its table through
 * drizzle-schema.cjs, which hands drizzle-kit every table built below. A family whose table holds
 * more than its declaration (a sealed secret, a cascade) names those columns in EXTRA_COLUMNS.
 */
import {
  FAMILY_LIST,
  AppUseEvent,
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
import { salesTeams } from './sales.js';
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
  const table = linesTable(def, field, foreignKey, () => builtFamilyTable(def.name).id);
  lineTables.set(`${def.name}.${field}`, table);
  return table;
}

/** A required reference whose rows go with the referenced row. */
const cascadeTo = (family: string) =>
  integer(`${family === 'Parent' ? 'parent' : 'student'}_id`)
    .notNull()
    .references(() => builtFamilyTable(family).id, { onDelete: 'cascade' });

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
      .references(() => builtFamilyTable('Developer').id, { onDelete: 'cascade' }),
  }),
  // A parent's or child's bindings, inbox and pushes go with them (the engine's references restrict deletes).
  StudentService: () => ({ studentId: cascadeTo('Student').unique('student_services_student_id_unique') }),
  ServiceReceiver: () => ({ parentId: cascadeTo('Parent'), studentId: cascadeTo('Student') }),
  ParentNotice: () => ({ parentId: cascadeTo('Parent'), studentId: cascadeTo('Student') }),
  PushDelivery: () => ({ parentId: cascadeTo('Parent') }),
  AppUseEvent: () => ({ parentId: cascadeTo('Parent') }),
  Terminal: () => ({
    // AES-256-GCM of the device's secret (terminals/secrets.ts): never a declared field, so never answered.
    secretSealed: text('secret_sealed'),
    // The highest event serial the device has sent: a later one beyond it + 1 opens a gap (terminal_serial_gaps).
    lastEventSerial: integer('last_event_serial').notNull().default(0),
    // The first signed call ever, and the first of the current run of calls (the call after a silence):
    // with the offline periods they tell whether the terminal was online at a past instant (the Overview).
    firstSeenAt: timestamptz('first_seen_at'),
    onlineSince: timestamptz('online_since'),
  }),
};

/** Registers the table of a family declared outside FAMILY_LIST (engine tests declare small families of their own). */
export const registerFamilyTable = (def: ResourceDef, table: ResourceTable): ResourceTable => register(table, def.name);

for (const def of FAMILY_LIST) {
  if (def.handWritten) continue;
  register(resourceTable(def, foreignKey, EXTRA_COLUMNS[def.name]?.()), def.name);
  for (const [field, definition] of Object.entries(def.fields)) if (definition.kind === 'lines') registerLines(def, field);
}

/** Every table built from the declarations: drizzle-kit reads them all (drizzle-schema.cjs). */
export function declaredTables(): ResourceTable[] {
  return [...familyTables.values(), ...lineTables.values()];
}

/**
 * The table built from a family's declaration (or registered by a test); a hand-written family's is
 * in family-tables.ts, which the engine reads.
 */
export function builtFamilyTable(name: string): ResourceTable {
  const table = familyTables.get(name);
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
export const schools = builtFamilyTable(School.name);
export const schoolClasses = builtFamilyTable(SchoolClass.name);
export const deviceClasses = builtFamilyTable(DeviceClass.name);
export const devices = builtFamilyTable(Device.name);
export const deviceDeliveries = builtFamilyTable(DeviceDelivery.name);
export const deviceWarranties = builtFamilyTable(DeviceWarranty.name);
export const licenses = builtFamilyTable(License.name);
export const students = builtFamilyTable(Student.name);
export const parents = builtFamilyTable(Parent.name);
export const teachers = builtFamilyTable(Teacher.name);
export const pickUpPersons = builtFamilyTable(PickUpPerson.name);
export const salesAreas = builtFamilyTable(SalesArea.name);
export const agentAreas = builtFamilyTable(AgentArea.name);
export const maintenanceTickets = builtFamilyTable(MaintenanceTicket.name);
export const recognitionRecords = builtFamilyTable(RecognitionRecord.name);
export const feverAlerts = builtFamilyTable(FeverAlert.name);
export const orders = builtFamilyTable(Order.name);
export const orderItems = lineTable(Order, 'items');
export const appVersions = builtFamilyTable(AppVersion.name);
export const nvrs = builtFamilyTable(Nvr.name);
export const nvrChannels = lineTable(Nvr, 'channels');
export const schoolHolidays = builtFamilyTable(SchoolHoliday.name);
export const platformLogs = builtFamilyTable(PlatformLog.name);
export const refunds = builtFamilyTable(Refund.name);
export const paymentProviderCalls = builtFamilyTable(PaymentProviderCall.name);
export const terminalAppVersions = builtFamilyTable(TerminalAppVersion.name);
export const terminalAppUpgrades = builtFamilyTable(TerminalAppUpgrade.name);
export const terminalUpgradeTargets = lineTable(TerminalAppUpgrade, 'targets');
export const developers = builtFamilyTable(Developer.name);
export const developerDeliveryAttempts = builtFamilyTable(DeveloperDelivery.name);
export const educationDirectories = builtFamilyTable(EducationDirectory.name);
export const terminals = builtFamilyTable(Terminal.name);
export const terminalLogs = builtFamilyTable(TerminalLog.name);
export const terminalConfigs = builtFamilyTable(TerminalConfig.name);
export const terminalCommands = builtFamilyTable(TerminalCommand.name);
export const appChargeItems = builtFamilyTable(AppChargeItem.name);
export const serviceConfigs = builtFamilyTable(ServiceConfig.name);
export const serviceConfigSplitRules = lineTable(ServiceConfig, 'splitRules');
export const paymentRecords = builtFamilyTable(PaymentRecord.name);
export const agentFundAccounts = builtFamilyTable(AgentFund.name);
export const agentFundEntries = builtFamilyTable(AgentFundEntry.name);
export const schoolCharges = builtFamilyTable(SchoolCharge.name);
export const comprehensiveCharges = builtFamilyTable(ComprehensiveCharge.name);
export const comprehensiveChargeItems = lineTable(ComprehensiveCharge, 'items');
export const userFeedbacks = builtFamilyTable(UserFeedback.name);
export const liveFeedbacks = builtFamilyTable(LiveFeedback.name);
export const sysNotices = builtFamilyTable(SysNotice.name);
export const appNoticeTemplates = builtFamilyTable(AppNoticeTemplate.name);
export const appContents = builtFamilyTable(AppContent.name);
export const userHelps = builtFamilyTable(UserHelp.name);
export const commonQuestions = builtFamilyTable(Question.name);
export const appStartupPages = builtFamilyTable(AppStartupPage.name);
export const posters = builtFamilyTable(Poster.name);
export const appFrames = builtFamilyTable(AppFrame.name);
export const screenChatContents = builtFamilyTable(ScreenChatContent.name);
export const appCooperationPlatforms = builtFamilyTable(AppCooperationPlatform.name);
export const appMusics = builtFamilyTable(AppMusic.name);
export const questionnaires = builtFamilyTable(Questionnaire.name);
export const questionnaireQuestions = lineTable(Questionnaire, 'questions');
export const studentServices = builtFamilyTable(StudentService.name);
export const serviceReceivers = builtFamilyTable(ServiceReceiver.name);
export const parentNotices = builtFamilyTable(ParentNotice.name);
export const pushDeliveries = builtFamilyTable(PushDelivery.name);
export const appUseEvents = builtFamilyTable(AppUseEvent.name);
