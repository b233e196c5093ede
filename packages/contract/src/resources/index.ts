import type { ResourceDef } from './define.js';
import { School } from './school.js';
import { Device, DeviceClass, DeviceDelivery, DeviceWarranty, License } from './device.js';
import { Parent, PickUpPerson, SchoolClass, Student, Teacher } from './people.js';
import { ChildUser, CompanyUser, ExternalUser } from './accounts.js';
import { AgentArea, SalesArea, SalesTeam } from './sales.js';
import { MaintenanceTicket } from './maintenance.js';
import { Order } from './order.js';
import { LoginLog, declareOperationLog } from './logs.js';
import { EducationCourseware, EducationDirectory } from './education.js';
import { RecognitionRecord } from './recognition.js';
import { Nvr } from './nvr.js';
import { SchoolHoliday } from './holiday.js';
import { PlatformLog } from './platform-log.js';
import { SmsOutbox } from './sms-outbox.js';
import { FeverAlert } from './fever-alert.js';
import { Developer, DeveloperDelivery } from './developer.js';
import { AppVersion } from './versions.js';
import { Terminal, TerminalLog } from './terminal.js';
import { TerminalCommand } from './terminal-command.js';
import { PaymentProviderCall } from './payment-providers.js';
import { TerminalAppUpgrade, TerminalAppVersion } from './upgrades.js';
import { AgentFund, AgentFundEntry, AppChargeItem, ComprehensiveCharge, PaymentRecord, SchoolCharge, ServiceConfig } from './finance.js';
import { TerminalConfig } from './terminal-config.js';
import { Refund } from './refund.js';
import { LiveFeedback, UserFeedback } from './feedback.js';
import { AppNoticeTemplate, SysNotice } from './notices.js';
import { AppContent, Question, UserHelp } from './app-content.js';
import { AppFrame, AppStartupPage, Poster, ScreenChatContent } from './app-screens.js';
import { AppCooperationPlatform } from './partners.js';
import { AppMusic } from './music.js';
import { Questionnaire } from './questionnaire.js';
import { Commodity, CommodityComment, CommodityOrder, Coupon, CouponGrant, MarketAddress, MarketAppAd, MarketCarouselAd, MarketCategory, MarketCommodity, MarketCommodityRelease, MarketMerchant, MarketOrder, PointsEntry } from './mall.js';
import { ParentNotice, PushDelivery, ServiceReceiver, StudentService } from './parents.js';
import { AlbumBook, AlbumBookVersion, AlbumOrder, AlbumPhoto, AlbumPriceConfig, AlbumSpec, AlbumTask, AlbumTemplate } from './album.js';
import { AppUseEvent } from './app-use.js';

export * from './define.js';
export * from './schemas.js';
export * from './built-once.js';
export * from './import.js';
export * from './line-rules.js';
export * from './row-schemas.js';
export * from './row-types.js';
export * from './answer-schemas.js';
export * from './common.js';
export * from './questionnaire.js';
export * from './school.js';
export * from './device.js';
export * from './people.js';
export * from './accounts.js';
export * from './sales.js';
export * from './maintenance.js';
export * from './order.js';
export * from './logs.js';
export * from './log-schemas.js';
export * from './education.js';
export * from './recognition.js';
export * from './terminal.js';
export * from './terminal-command.js';
export * from './nvr.js';
export * from './holiday.js';
export * from './platform-log.js';
export * from './fever-alert.js';
export * from './developer.js';
export * from './terminal-config.js';
export * from './tree.js';
export * from './link-attributes.js';
export * from './versions.js';
export * from './payment-providers.js';
export * from './finance.js';
export * from './upgrades.js';
export * from './refund.js';
export * from './feedback.js';
export * from './notices.js';
export * from './app-content.js';
export * from './app-screens.js';
export * from './partners.js';
export * from './music.js';
export * from './mall.js';
export * from './parents.js';
export * from './album.js';
export * from './app-use.js';

/** Every declared family but the operation log, which lists them (and itself) as its `family` options. */
const FAMILIES: readonly ResourceDef[] = [
  School,
  SchoolClass,
  DeviceClass,
  Device,
  DeviceDelivery,
  DeviceWarranty,
  License,
  Student,
  Parent,
  Teacher,
  PickUpPerson,
  CompanyUser,
  ExternalUser,
  ChildUser,
  SalesArea,
  SalesTeam,
  AgentArea,
  MaintenanceTicket,
  Order,
  EducationDirectory,
  LoginLog,
  RecognitionRecord,
  FeverAlert,
  AppVersion,
  Terminal,
  TerminalLog,
  TerminalCommand,
  Nvr,
  SchoolHoliday,
  PlatformLog,
  SmsOutbox,
  // Refund first: the page of refundManage is its family's; the provider call log is its second tab.
  Refund,
  PaymentProviderCall,
  AppChargeItem,
  SchoolCharge,
  ComprehensiveCharge,
  // ServiceConfig first: the page of schoolMerchantsManage is its; the fund families are further tabs.
  ServiceConfig,
  PaymentRecord,
  AgentFund,
  AgentFundEntry,
  TerminalAppVersion,
  TerminalAppUpgrade,
  Developer,
  // Developer first: the page of developManage is its; the delivery log is a second tab.
  DeveloperDelivery,
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
  EducationCourseware,
  Questionnaire,
  MarketCategory,
  MarketMerchant,
  MarketCommodity,
  MarketCommodityRelease,
  MarketAppAd,
  MarketCarouselAd,
  MarketAddress,
  MarketOrder,
  Commodity,
  // CommodityOrder first: the page of scallionRiceOrder is its; the points ledger is a second tab.
  CommodityOrder,
  PointsEntry,
  // Coupon first: the page of couponManage is its; the grants are a second tab.
  Coupon,
  CouponGrant,
  CommodityComment,
  // Parent's page first (above), then the bindings and the receipts as its further tabs.
  ServiceReceiver,
  ParentNotice,
  StudentService,
  PushDelivery,
  AlbumSpec,
  AlbumPriceConfig,
  AlbumTemplate,
  // AlbumTask first: the page of albumTask is its; the photos are a tab of a task's drawer.
  AlbumTask,
  AlbumPhoto,
  AlbumBook,
  AlbumBookVersion,
  AlbumOrder,
  AppUseEvent,
];

export const OperationLog = declareOperationLog(FAMILIES);

/** Every declared family, once: the one list (the server checks at start that no name comes twice). */
export const FAMILY_LIST: readonly ResourceDef[] = [...FAMILIES, OperationLog];

/** Every declared family, by name. */
export const RESOURCES: Readonly<Record<string, ResourceDef>> = Object.fromEntries(FAMILY_LIST.map((r) => [r.name, r]));

/** The family shown on a page (route index), if any: a child family (`parent`) is a tab of its parent's drawer, not a page. */
export function resourceOfFrame(frame: string): ResourceDef | undefined {
  return Object.values(RESOURCES).find((r) => r.views.some((v) => v.frame === frame) && !r.parent);
}

/** Every page family of a frame, the page's own first: refundManage shows refunds and the provider call log as tabs. */
export function familiesOfFrame(frame: string): ResourceDef[] {
  return Object.values(RESOURCES).filter((r) => r.views.some((v) => v.frame === frame) && !r.parent);
}

/** The child families shown as tabs of a family's record drawer. */
export function childFamiliesOf(def: ResourceDef): ResourceDef[] {
  return Object.values(RESOURCES).filter((r) => r.parent?.family === def.name);
}
export * from './badge-filters.js';
