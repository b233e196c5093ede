/**
 * Tables of the declared families, built from their declarations. A new simple family adds one
 * line here, then `npm run db:generate -w apps/server` writes its migration.
 */
import {
  AgentArea,
  AgentFund,
  AgentFundEntry,
  AppChargeItem,
  ComprehensiveCharge,
  SchoolCharge,
  PaymentRecord,
  ServiceConfig,
  AppVersion,
  TerminalAppUpgrade,
  TerminalAppVersion,
  Device,
  DeviceClass,
  DeviceDelivery,
  DeviceWarranty,
  EducationDirectory,
  License,
  MaintenanceTicket,
  Nvr,
  Developer,
  DeveloperDelivery,
  PlatformLog,
  SchoolHoliday,
  Order,
  Parent,
  PaymentProviderCall,
  PickUpPerson,
  Refund,
  RecognitionRecord,
  FeverAlert,
  SalesArea,
  School,
  SchoolClass,
  Student,
  Teacher,
  Terminal,
  TerminalLog,
  TerminalCommand,
  TerminalConfig,
  UserFeedback,
  LiveFeedback,
  SysNotice,
  AppNoticeTemplate,
  AppContent,
  UserHelp,
  Question,
  AppStartupPage,
  Poster,
  AppFrame,
  ScreenChatContent,
  AppCooperationPlatform,
  AppMusic,
  Questionnaire,
  type FieldDef,
  type ResourceDef,
} from '@campus/contract';
import { integer, text } from 'drizzle-orm/pg-core';
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
/** Registers the table of a family declared outside RESOURCES (engine tests declare small families of their own). */
export const registerFamilyTable = (def: ResourceDef, table: ResourceTable): ResourceTable => register(table, def.name);

export const schools = register(
  resourceTable(School, foreignKey, {
    examineRemark: text('examine_remark'),
    examinedAt: timestamptz('examined_at'),
    adminPasswordHash: text('admin_password_hash'),
  }),
  School.name,
);
export const schoolClasses = register(resourceTable(SchoolClass, foreignKey), SchoolClass.name);
export const deviceClasses = register(resourceTable(DeviceClass, foreignKey), DeviceClass.name);
export const devices = register(resourceTable(Device, foreignKey), Device.name);
export const deviceDeliveries = register(resourceTable(DeviceDelivery, foreignKey), DeviceDelivery.name);
export const deviceWarranties = register(resourceTable(DeviceWarranty, foreignKey), DeviceWarranty.name);
export const licenses = register(resourceTable(License, foreignKey), License.name);
export const students = register(resourceTable(Student, foreignKey), Student.name);
export const parents = register(resourceTable(Parent, foreignKey), Parent.name);
export const teachers = register(resourceTable(Teacher, foreignKey), Teacher.name);
export const pickUpPersons = register(resourceTable(PickUpPerson, foreignKey), PickUpPerson.name);
export const salesAreas = register(resourceTable(SalesArea, foreignKey), SalesArea.name);
export const agentAreas = register(resourceTable(AgentArea, foreignKey), AgentArea.name);
export const maintenanceTickets = register(resourceTable(MaintenanceTicket, foreignKey), MaintenanceTicket.name);
export const recognitionRecords = register(resourceTable(RecognitionRecord, foreignKey), RecognitionRecord.name);
export const feverAlerts = register(resourceTable(FeverAlert, foreignKey), FeverAlert.name);
export const orders = register(resourceTable(Order, foreignKey), Order.name);
export const orderItems = registerLines(Order, 'items');

/** The table of a family's lines field. */
export function lineTable(def: ResourceDef, field: string): ResourceTable {
  const table = lineTables.get(`${def.name}.${field}`);
  if (!table) throw new Error(`no table for ${def.name}.${field}: add it to db/schema/resources.ts`);
  return table;
}
export const appVersions = register(resourceTable(AppVersion, foreignKey), AppVersion.name);
export const nvrs = register(resourceTable(Nvr, foreignKey), Nvr.name);
export const nvrChannels = registerLines(Nvr, 'channels');
export const schoolHolidays = register(resourceTable(SchoolHoliday, foreignKey), SchoolHoliday.name);
export const platformLogs = register(resourceTable(PlatformLog, foreignKey), PlatformLog.name);
export const refunds = register(resourceTable(Refund, foreignKey), Refund.name);
export const paymentProviderCalls = register(resourceTable(PaymentProviderCall, foreignKey), PaymentProviderCall.name);
export const terminalAppVersions = register(resourceTable(TerminalAppVersion, foreignKey), TerminalAppVersion.name);
export const terminalAppUpgrades = register(resourceTable(TerminalAppUpgrade, foreignKey), TerminalAppUpgrade.name);
export const terminalUpgradeTargets = registerLines(TerminalAppUpgrade, 'targets');
export const developers = register(resourceTable(Developer, foreignKey, { secretSealed: text('secret_sealed') }), Developer.name);
export const developerDeliveryAttempts = register(
  resourceTable(DeveloperDelivery, foreignKey, {
    // A developer's delivery log goes with it (the engine's references restrict deletes).
    developerId: integer('developer_id')
      .notNull()
      .references(() => developers.id, { onDelete: 'cascade' }),
  }),
  DeveloperDelivery.name,
);
export const educationDirectories = register(resourceTable(EducationDirectory, foreignKey), EducationDirectory.name);
export const terminals = register(
  resourceTable(Terminal, foreignKey, {
    // AES-256-GCM of the device's secret (terminals/secrets.ts): never a declared field, so never answered.
    secretSealed: text('secret_sealed'),
    // The highest event serial the device has sent: a later one beyond it + 1 opens a gap (terminal_serial_gaps).
    lastEventSerial: integer('last_event_serial').notNull().default(0),
  }),
  Terminal.name,
);
export const terminalLogs = register(resourceTable(TerminalLog, foreignKey), TerminalLog.name);
export const terminalConfigs = register(resourceTable(TerminalConfig, foreignKey), TerminalConfig.name);
export const terminalCommands = register(resourceTable(TerminalCommand, foreignKey), TerminalCommand.name);
export const appChargeItems = register(resourceTable(AppChargeItem, foreignKey), AppChargeItem.name);
export const serviceConfigs = register(resourceTable(ServiceConfig, foreignKey), ServiceConfig.name);
export const serviceConfigSplitRules = registerLines(ServiceConfig, 'splitRules');
export const paymentRecords = register(resourceTable(PaymentRecord, foreignKey), PaymentRecord.name);
export const agentFundAccounts = register(resourceTable(AgentFund, foreignKey), AgentFund.name);
export const agentFundEntries = register(resourceTable(AgentFundEntry, foreignKey), AgentFundEntry.name);
export const schoolCharges = register(resourceTable(SchoolCharge, foreignKey), SchoolCharge.name);
export const comprehensiveCharges = register(resourceTable(ComprehensiveCharge, foreignKey), ComprehensiveCharge.name);
export const comprehensiveChargeItems = registerLines(ComprehensiveCharge, 'items');
// Operations: what the app and the terminals show, and what parents tell the company.
export const userFeedbacks = register(resourceTable(UserFeedback, foreignKey), UserFeedback.name);
export const liveFeedbacks = register(resourceTable(LiveFeedback, foreignKey), LiveFeedback.name);
export const sysNotices = register(resourceTable(SysNotice, foreignKey), SysNotice.name);
export const appNoticeTemplates = register(resourceTable(AppNoticeTemplate, foreignKey), AppNoticeTemplate.name);
export const appContents = register(resourceTable(AppContent, foreignKey), AppContent.name);
export const userHelps = register(resourceTable(UserHelp, foreignKey), UserHelp.name);
export const commonQuestions = register(resourceTable(Question, foreignKey), Question.name);
export const appStartupPages = register(resourceTable(AppStartupPage, foreignKey), AppStartupPage.name);
export const posters = register(resourceTable(Poster, foreignKey), Poster.name);
export const appFrames = register(resourceTable(AppFrame, foreignKey), AppFrame.name);
export const screenChatContents = register(resourceTable(ScreenChatContent, foreignKey), ScreenChatContent.name);
export const appCooperationPlatforms = register(resourceTable(AppCooperationPlatform, foreignKey), AppCooperationPlatform.name);
export const appMusics = register(resourceTable(AppMusic, foreignKey), AppMusic.name);
export const questionnaires = register(resourceTable(Questionnaire, foreignKey), Questionnaire.name);
export const questionnaireQuestions = registerLines(Questionnaire, 'questions');

/** The table of a declared family. */
export function familyTable(name: string): ResourceTable {
  const table = familyTables.get(name) ?? (handWrittenTables[name]?.() as ResourceTable | undefined);
  if (!table) throw new Error(`no table for family ${name}: add it to db/schema/resources.ts`);
  return table;
}
