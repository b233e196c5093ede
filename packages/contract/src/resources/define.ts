/**
 * The resource declaration: one per family. The server builds its table, routes and export from it;
 * the web builds its filter bar, table, form and export from it.
 */
import type { ButtonValue } from '../menu.js';
import type { ProbeName, UserType } from '../users.js';
import type { PhoneKind } from '../phones.js';
import type { Label } from '../label.js';
import type { ServerMessage, ServerMessageKey } from '../messages.js';

export type { Label };

export interface EnumOption {
  value: number | string;
  zh: string;
  en: string;
  /** antd tag colour for the table cell. */
  color?: string;
}

/**
 * How a field filters a Search: one rule per field meaning, the same on every page (engine/search-rules.ts).
 * - `name`: names and titles match by any part, case-insensitively ("雨桐" finds 王雨桐); an index of the
 *   value's 1- and 2-character pieces serves it, so two-character Chinese parts are indexed too.
 * - `code`: codes, serial numbers, login names, addresses and messages match by any part,
 *   case-insensitively ("g39005" finds G39005); a trigram index serves parts of 3 characters or more.
 * - `digits`: phones and number-like values: 4 or more digits match any run ("0023" finds a phone
 *   ending in 0023), fewer match the start.
 * - `equals`; `range` (from/to); `in` (a list).
 * A `name` field also sorts in Chinese pinyin order where the database can (docs/decisions.md).
 */
export type FilterMode = 'equals' | 'name' | 'code' | 'digits' | 'range' | 'in';

/** Digits typed into a `digits` filter from which it matches any run instead of the start. */
export const DIGITS_ANY_PART_MIN = 4;

interface FieldCommon {
  label: Label;
  /** Required on Add (and may not be cleared on Update). */
  required?: boolean;
  filter?: FilterMode;
  /** The filter value meaning "any" (the seed's -1 / 0 search defaults); it is never applied. */
  filterAll?: string | number;
  /** Shown as a table column (default true). */
  list?: boolean;
  /** Shown in the add/edit form (default true unless readOnly). */
  form?: boolean;
  /** Written to exports (default: same as list). */
  exported?: boolean;
  sortable?: boolean;
  /** Set by the server only; never accepted from a client. */
  readOnly?: boolean;
  unique?: boolean;
  /**
   * Not a column: the family's hooks compute it on read (`afterRead`) and, when it has a `filter`,
   * turn that filter into SQL (`computedFilters`), e.g. whether a device awaits a licence (a time
   * compared with the request's is declared with `until`). Never written; implies readOnly.
   */
  computed?: boolean;
  /**
   * A computed bool true while the datetime field it names lies ahead of the request's time (a
   * terminal is online until its `offlineAt`): read and filtered by the engine, so whatever hears from
   * the thing moves that time ahead and nothing has to flip the value back.
   */
  until?: string;
  /** Value the form starts with on Add. */
  defaultValue?: string | number | boolean;
  help?: Label;
  /** Column width in px. */
  width?: number;
  /**
   * This field is not chosen but follows another reference of the row: `{ reference: 'studentId',
   * field: 'schoolId' }` sets the school from the chosen student (schoolRef({ from: 'studentId' })).
   */
  follows?: FollowsDef;
  /**
   * On Add, a value left empty is taken from a field of the row another reference names (an order's
   * agent from its school's `agentId`), read in the caller's scope; a value given is kept.
   */
  defaultFrom?: { reference: string; field: string };
  /**
   * Only callers whose visibility probe holds set this field (a template's thresholds, an agent's
   * merchant id): for others an Add takes the default, an Update keeps the stored value, a different
   * value is refused on the field, and the form leaves it out.
   */
  probe?: ProbeName;
  /**
   * Who owns the row: an agent (or its child account) writing it is its `agent`, a sales person its
   * `seller` and that seller's `salesTeam`, set on Add and never changed by them; only company staff
   * choose it (the form shows it to them alone). Any other caller's value is ignored.
   */
  ownedBy?: 'agent' | 'seller' | 'salesTeam';
  /** Set on Add, never changed after (an account's type, who a fund account belongs to); the edit form shows it disabled. */
  fixed?: boolean;
  /**
   * Required while another field of the row holds one of these values (a province for an area
   * audience, a school for a school account); checked on the row as it will be, by the form and the server.
   */
  requiredWhen?: RequiredWhenDef;
  /**
   * Required on the row as it will be, on Add and Update alike, unless a field of `orElse` holds a
   * value (a poster's image or video); refused on this field with `message`, by the form and the server.
   */
  requiredOnRow?: { orElse?: readonly string[]; message: ServerMessageKey };
  /**
   * The field agrees with a field of the row another reference names, on the row as it will be: a
   * serial number starts with its product model's prefix, a version's model is of its terminal type.
   */
  agrees?: AgreesDef;
}

/**
 * `of` (this field unless named) `is` equal to, or starts with (`prefix`), the `field` of the row the
 * reference field `reference` names; otherwise refused on this field with `message`, given
 * `{expected}` (the referenced value). Nothing is compared while either value or the reference is empty.
 */
export interface AgreesDef {
  reference: string;
  field: string;
  is: 'equal' | 'prefix';
  of?: string;
  message: ServerMessageKey;
}

/** Where a following field takes its value; `refuseEmpty`: a referenced row without one is refused (a device not yet at a school). */
export interface FollowsDef {
  reference: string;
  field: string;
  refuseEmpty?: boolean;
}

/** A number's bound read from another field (`atMost`, `atLeast`): its name and the refusal's message, given `{limit}`. */
export interface FieldBoundDef {
  field: string;
  message: ServerMessageKey;
}

/** The condition of `requiredWhen`: the field `field` holds one of `in`. */
export interface RequiredWhenDef {
  field: string;
  in: readonly (string | number | boolean)[];
}

export type FieldDef = FieldCommon &
  (
    /**
     * `numbered`: set by the server at Add to the prefix, the business day (China) and the id in six
     * digits (`WX20261127000015`): unique without a counter to race on. Declare it `readOnly`.
     */
    | { kind: 'text'; max?: number; min?: number; pattern?: string; patternMessage?: Label; numbered?: { prefix: string }; items?: TextItemsDef }
    /**
     * `rich`: HTML written in a rich-text editor; the server keeps only the allow-listed tags and
     * attributes (no script, event handler or javascript: address) and the page previews it as the
     * app renders it. `placeholders`: the `{name}`s the text may hold (a notice template's
     * `{studentName}`); any other is refused, and the preview fills them with their samples.
     */
    | { kind: 'textarea'; max?: number; rich?: boolean; placeholders?: readonly PlaceholderDef[]; items?: TextItemsDef }
    /** `phoneKind` says which numbers it takes (phones.ts): a mobile, or any service line. */
    | { kind: 'phone'; phoneKind: PhoneKind }
    /** `multiple`: a list of numbers in one array column (the operation log's row ids), answered as an array. */
    /**
     * `atMost` / `atLeast`: the number may not exceed (fall below) another field's value, of the row or,
     * for a line field, of the line's parent row (an NVR's channel numbers and its channel count, a
     * coupon's total and what it has issued); refused with the bound's `message`, `{limit}` its value.
     */
    | { kind: 'number'; min?: number; max?: number; integer?: boolean; multiple?: boolean; /** A length of time in seconds, shown as 3:04. */ unit?: 'seconds'; atMost?: FieldBoundDef; atLeast?: FieldBoundDef }
    /** Integer cents in storage and on the wire; the web shows yuan with two decimals. */
    | { kind: 'money'; min?: number; max?: number }
    | { kind: 'bool'; trueLabel?: Label; falseLabel?: Label }
    | { kind: 'enum'; options: readonly EnumOption[] }
    /**
     * `notBefore`: the date may not precede that date field of the row (an end after its start), and
     * with `maxDays` the two span at most that many days, both counted.
     */
    | { kind: 'date'; notBefore?: string; maxDays?: number }
    | { kind: 'datetime' }
    /**
     * A row of another family, by id (or by its `key` field, e.g. a device class code);
     * `display` names that family's field shown instead of the value. `optionsFilter` narrows the
     * picker to rows matching those filters of the target family (e.g. accounts of type agent).
     * `multiple`: several rows by id, kept by the family's hooks in a link table (no column); rows
     * carry the ids as the field's value and their display values as `${field}Label` (a list).
     */
    | {
        kind: 'reference';
        family: string;
        display: string;
        key?: string;
        optionsFilter?: Readonly<Record<string, string | number | boolean>>;
        /** The message a value the picker would not offer answers (missing, out of scope or outside `optionsFilter`), instead of "not found". */
        refusal?: ServerMessage;
        multiple?: boolean;
        /** For `multiple`: the link table the engine keeps (no hand-written hooks). */
        link?: LinkDef;
        /**
         * The referenced row must lie in the same value of this field of the row being written, e.g.
         * `within: 'schoolId'`: a student's class belongs to the student's school. Checked by the
         * server (same answer as "not found") and used to narrow the web picker.
         */
        within?: string;
      }
    | { kind: 'image' }
    /**
     * An uploaded file: a video (UploadVideos, the default), audio (UploadAudios), an app / firmware
     * package (UploadPackages) or a document (UploadDocuments: PDF, Word, PowerPoint; also the PDFs the
     * platform makes itself). `poster` on a video names the image field the form fills with a frame
     * the browser grabs from the chosen file (no frame decoder runs on the server).
     */
    | { kind: 'file'; files?: 'video' | 'audio' | 'package' | 'document'; poster?: string; recorded?: RecordedFileDef; length?: MediaLengthDef }
    /** One part of a province/city/area address; the three parts are joined for display. */
    | { kind: 'region'; part: RegionPart }
    /**
     * Several provinces (or cities) as one comma-joined text, e.g. the provinces a sales area covers;
     * cities must lie in the provinces of the family's province-level list.
     */
    | { kind: 'places'; level: 'province' | 'city'; max?: number }
    /**
     * Write-only: the client sends the MD5 hex, the server stores a slow salted hash. `sealed`: a
     * credential the server must use itself later (an NVR's login): the client sends it as typed,
     * the server stores it encrypted (AES-256-GCM under the deployment's sealing key); never answered.
     */
    | { kind: 'password'; sealed?: boolean }
    /**
     * The items of an order (parent and lines): written with the parent in one transaction, read
     * with Get, never a column of the parent. `amount` names the line's computed money field
     * (quantity × unit price) and `total` the parent's money field holding their sum.
     */
    | {
        kind: 'lines';
        table: string;
        fields: Record<string, FieldDef>;
        min?: number;
        max?: number;
        amount?: LineAmountDef;
        /** Indexes of the line table (line field names, or the owner key such as `orderId`) beyond (owner, line_no). */
        indexes?: readonly (readonly string[])[];
        /** Rules across the lines, checked by the server and the form alike (line-rules.ts). */
        rules?: LineRulesDef;
      }
    /** Structured data written by the server (an operation's changes): shown as a diff or JSON. */
    | { kind: 'json' }
  );

/**
 * A text holding a list, one item per line (a choice question's options; blanks dropped, items
 * trimmed: `textItemsOf`). While `when` holds on the row (or on the line, for a line field) the items
 * number `min`–`max`, each of at most `itemMax` characters, none twice; otherwise the text stays empty.
 * Checked by the server and the form alike (line-rules.ts); `messages` replace the generic ones.
 */
export interface TextItemsDef {
  min: number;
  max: number;
  itemMax: number;
  when?: RequiredWhenDef;
  messages?: { count: ServerMessageKey; tooLong: ServerMessageKey; twice: ServerMessageKey; notHere: ServerMessageKey };
}

/**
 * Fields of the row the server sets from the upload record of a file field whenever the file changes
 * (a package's hash and size, what a terminal checks its download against; never typed). A file
 * without such a record (not uploaded here, or not of the field's `files` kind) is refused with
 * `message`, or `validation.uploadNotRecorded`.
 */
export interface RecordedFileDef {
  sha256: string;
  size: string;
  message?: ServerMessageKey;
}

/**
 * A media file's length (a song's, a courseware video's), read by the server from the file whenever
 * the file is given or the stored length is empty, never typed in: whole seconds into the `into`
 * field, at most `max`. A value that is no upload of the field's `files` kind answers `notUploaded`,
 * a length that cannot be read `unreadable`, a longer one `tooLong`, each on the file field.
 */
export interface MediaLengthDef {
  into: string;
  max: number;
  messages: { notUploaded: ServerMessage; unreadable: ServerMessage; tooLong: ServerMessage };
}

/** A `{name}` a text may hold, with the value a preview fills in. */
export interface PlaceholderDef {
  name: string;
  label: Label;
  sample: string;
}

/**
 * The link table of a multiple reference: `(owner, target)` rows, the owner's id first. `owner` and
 * `target` are the link table's field names (camelCase; the columns are their snake_case).
 */
export interface LinkDef {
  table: string;
  /** Column holding the id of the row that declares the field. */
  owner: string;
  /** Column holding the referenced row's id. */
  target: string;
  /** Values each link carries (a seller's level in a team): the links are then edited on their own calls. */
  attributes?: LinkAttributesDef;
}

/**
 * The values a link carries and the calls that edit them: `GET /api/{Family}/Get{verb}?id=` answers
 * the links best first (by `orderBy`), `POST /api/{Family}/Save{verb}` `{ id, version?, [list]: [{
 * [target], ...fields }] }` replaces them (list = the verb in lower camel case, e.g. `members`).
 */
export interface LinkAttributesDef {
  verb: string;
  /** The link table's own columns, validated like a family's fields. */
  fields: Readonly<Record<string, FieldDef>>;
  /** The attribute the links are read by, then the target's id. */
  orderBy: string;
  /** Text columns of the target row answered with each link (a seller's login name). */
  details?: readonly string[];
  /** A target is linked to one owner at most (a seller is in one team): another owner's target is refused naming it. */
  exclusive?: boolean;
  /** Most links one owner holds. */
  max?: number;
}

/**
 * Rules across a field's lines: `distinct` line fields hold a different value on every line (one split
 * rule per effective date; empty values are not compared), and each `sums` entry's fields add up to
 * `equals` on every line (the shares of a split rule to 100). `message` replaces the generic message
 * (`lines.repeated` / `lines.sumNotEqual`); a sum's error lies on its first field and takes `{sum}`.
 */
export interface LineRulesDef {
  distinct?: readonly { field: string; message?: ServerMessageKey }[];
  sums?: readonly { fields: readonly [string, ...string[]]; equals: number; message?: ServerMessageKey }[];
}

/** How a lines field computes each line's amount and the parent's total, in cents. */
export interface LineAmountDef {
  quantity: string;
  unitPrice: string;
  /** The line's money field set to quantity × unitPrice. */
  into: string;
  /** The parent's money field set to the sum of the lines. */
  total: string;
  /**
   * Where the server reads the unit price (the line's `unitPrice` field is then readOnly): this field
   * of the row the line's `reference` names, e.g. the product model's price. Without it the client
   * sends the unit price.
   */
  priceFrom?: { reference: string; field: string };
}

export type FieldKind = FieldDef['kind'];

/** The three parts of a Chinese address, from the widest. */
export type RegionPart = 'province' | 'city' | 'area';

/**
 * How a row reaches a school id, so the caller's data scope applies:
 * `self` — the row is a school; `school` — the row carries a school id column;
 * `global` — catalogue rows everyone with the frame may read (writes still need the button);
 * `account` — the row is an account of one of `types`: company staff reach all of them, an agent its
 * own child accounts and the external users bound to its schools, a child account those external
 * users, everyone else none.
 * `school` may add `agentOwner`: rows an agent owns without a school (its own fund account, and that
 * account's entries) are also *read* by the agent and its child accounts; writes keep the school rule.
 */
export type ScopeDef =
  | { via: 'self' }
  | { via: 'school'; field: string; agentOwner?: AgentOwnerDef }
  | { via: 'global' }
  | { via: 'account'; types: readonly UserType[] };

/**
 * Which agent owns a row: `field` holds the agent's user id, on the row itself or, with `through`
 * (a reference field of the row), on the referenced row.
 */
export interface AgentOwnerDef {
  field: string;
  through?: string;
}

/** A boolean (or enum) field switched by one button from the table row. */
export interface ToggleDef {
  field: string;
  button: ButtonValue;
}

/** A named row action: POST /api/{Family}/{verb} with `{ id, ...fields }`. */
export interface ActionDef {
  verb: string;
  button: ButtonValue;
  label: Label;
  /** Fields the action's form asks for (declared like resource fields). */
  fields?: Record<string, FieldDef>;
  /** Ask for confirmation before running. */
  confirm?: Label;
  /** Ask `confirm` only when this field of the row holds a value (rotating a secret: only once one was issued). */
  confirmWhenSet?: string;
  /**
   * The action answers a value the user sees exactly once (a secret the server cannot show again):
   * `field` names it in the answer's data; the web shows it in a modal with a copy button.
   */
  reveal?: { field: string; label: Label; help: Label };
  /**
   * The action applies only to rows whose fields hold these values (an alert not yet acknowledged),
   * or one of the values listed (an order paid, shipped, received or completed): the web offers it
   * on those rows only; the family's handler refuses the others with 409.
   */
  offeredWhen?: Record<string, string | number | boolean | readonly (string | number | boolean)[]>;
  /** Asks the caller's refund password again (MD5 on the wire as `reauthPassword`), as a refund transition does. */
  reauth?: 'refundPassword';
}

/** Whether a row offers the action: every `offeredWhen` field holds its value or one of its values (compared as text: the wire may carry either). */
export function actionOffered(action: ActionDef, row: Record<string, unknown>): boolean {
  return Object.entries(action.offeredWhen ?? {}).every(([field, value]) => (Array.isArray(value) ? value : [value]).some((one) => String(row[field]) === String(one)));
}

/**
 * A workflow transition: POST /api/{Family}/{verb} with `{ id, version, ...fields }`. The engine locks
 * the row, refuses a row whose state is not in `from` (HTTP 409 naming the state), validates the
 * fields, runs the family's transition hook, sets `to`, bumps the version, writes the history and
 * the operation log, all in one transaction.
 */
export interface TransitionDef {
  verb: string;
  from: readonly StateValue[];
  /** The state reached, or the state chosen by a bool field of the transition (School's Examine with isPassed). */
  to: StateValue | { by: string; cases: { true: StateValue; false: StateValue } };
  button: ButtonValue;
  label: Label;
  /** Fields the transition's form asks for (a remark, an assignee, an amount). */
  fields?: Record<string, FieldDef>;
  confirm?: Label;
  /** Asks the caller's refund password again (MD5 on the wire as `reauthPassword`). */
  reauth?: 'refundPassword';
  /** Shown as a dangerous button (cancel, close, reject). */
  danger?: boolean;
  /**
   * Row fields the move sets besides the state: `at` the time of the move, `by` the caller's id,
   * `remark` the transition's remark (a reply's time, a review's time and comment, a shipping's time).
   */
  stamps?: { at?: string; by?: string; remark?: string };
  /**
   * Also offered on several selected rows at once: `POST /api/{Family}/Batch{verb}` `{ ids, ...fields }`
   * moves them all in one transaction, or none (a row in another state answers 409 naming it). Not
   * with `reauth` or a `to.by` choice: a batch carries one set of fields for every row.
   */
  batch?: boolean;
}

export type StateValue = number | string;

/** A family whose rows move through states: the state field, where rows start, the transitions. */
export interface WorkflowDef {
  /** An enum field; only transitions change it (never Add or Update). */
  field: string;
  initial: StateValue;
  transitions: readonly TransitionDef[];
  /** Update only in these states (an order once confirmed is not edited); default every state. */
  editableIn?: readonly StateValue[];
  /** BatchDelete only in these states; default every state. */
  deletableIn?: readonly StateValue[];
  /**
   * Moves the platform makes on its own, never through a route: a terminal acknowledging a command, a
   * command expiring. Declared so their states are checked at start and the timeline names them; the
   * family's code runs them with the engine's `applySystemTransition` (same lock, state check, version
   * bump and history as an operator's transition, with no user).
   */
  systemTransitions?: readonly SystemTransitionDef[];
}

/** A state change made by the platform itself (see `WorkflowDef.systemTransitions`). */
export interface SystemTransitionDef {
  verb: string;
  from: readonly StateValue[];
  to: StateValue;
  label: Label;
}

/** A read-only, append-only family: Search, Get and Export only, ordered by time and paged by key. */
export interface LogDef {
  /** The datetime field rows are ordered, ranged and key-paged by. */
  timeField: string;
  /** Days the time range covers when the caller gives none (7). */
  defaultDays?: number;
  /** Rows older than this many days are purged by a daily job. */
  retentionDays?: number;
  /** A bool field the `hide` button may set: the only change a log row ever sees. */
  hideField?: string;
  /**
   * `month`: the table is range-partitioned by month on `timeField` (PostgreSQL declarative
   * partitioning), for logs that grow by millions of rows a day. The time field then joins the primary
   * key `(id, time)` and every unique index (PostgreSQL requires the partition key in both), a default
   * partition catches rows of months without one, a daily job creates next month's partition ahead
   * and drops those wholly past `retentionDays` (docs/decisions.md "Recognition records by month").
   */
  partition?: 'month';
  /**
   * Named calls answering exactly as the family's Search (the seed's `/api/Log/GetPlatformErrLogs`),
   * guarded alike; `fixed` forces filter values on them the way a view's `fixed` does.
   */
  aliases?: readonly LogAliasDef[];
}

/** Another path of a log family's Search: POST `path`, same body and answer, `verb` names it in the API docs. */
export interface LogAliasDef {
  path: string;
  verb: string;
  fixed?: Record<string, string | number | boolean>;
}

/** A child family shown as a tab of its parent's record drawer; its scope follows the parent. */
export interface ParentDef {
  family: string;
  /** The child's reference field naming the parent row. */
  field: string;
  /**
   * The parent's field that child field holds, when not its id: a terminal's commands name its device
   * (`deviceId`), so the tab of a terminal lists the commands whose `deviceId` is the terminal's.
   */
  key?: string;
}

/** A family that is a tree: a parent reference and an order among siblings. */
export interface TreeDef {
  parentField: string;
  orderField: string;
  /** Deleting a node deletes its subtree; otherwise a node with children cannot be deleted. */
  cascade?: boolean;
}

/** One page of a family: families shown on several pages fix some filters per page. */
export interface ViewDef {
  frame: string;
  fixed?: Record<string, string | number | boolean>;
}

export interface ResourceDef {
  /** Family name as in SEED-SPEC section 7; the API path is /api/{name}/... */
  name: string;
  label: Label;
  /** SQL table name. */
  table: string;
  /**
   * The table is written by hand in apps/server/src/db/schema (the accounts, the sales teams, the
   * product's own logs): the engine serves it, the declaration builds none.
   */
  handWritten?: true;
  /** Pages showing this family (usually one). */
  views: readonly ViewDef[];
  fields: Record<string, FieldDef>;
  scope: ScopeDef;
  /** Field shown when a row is named (delete confirmation, references). */
  titleField: string;
  searchDefaults?: Record<string, string | number | boolean>;
  defaultSort?: { field: string; order: 'asc' | 'desc' };
  toggles?: readonly ToggleDef[];
  actions?: readonly ActionDef[];
  /** Extra composite indexes (field names) beyond the filter indexes the engine derives. */
  indexes?: readonly (readonly string[])[];
  /**
   * Unique composite indexes (field names): the database refuses a second row repeating one, e.g. a
   * recognition record's (device, event serial), so a terminal's retried event is stored once.
   */
  uniqueIndexes?: readonly (readonly string[])[];
  /** `log`: read-only rows ordered by time (see `log`); default `crud`. */
  mode?: 'crud' | 'log';
  log?: LogDef;
  workflow?: WorkflowDef;
  parent?: ParentDef;
  tree?: TreeDef;
  /** Only these user types may call the family at all, whatever their grant (the login log: company staff). */
  userTypes?: readonly UserType[];
  /**
   * Who may change the family's rows at all, whatever their grant: callers of `userTypes` holding
   * `probe`. Anyone else is refused (403 with `message`) every Add, Update, toggle, delete, action and
   * transition; reading stays with the grant (schools by their owners, templates by `canUpdateParamConfigs`).
   */
  writers?: { userTypes?: readonly UserType[]; probe?: ProbeName; message: ServerMessage };
  /** Rows may be imported from .xlsx (see `ImportDef`): template, dry run and import under the `import` button. */
  import?: ImportDef;
}

/**
 * Excel import of a family: `GET /api/{Family}/ImportTemplate`, `POST /api/{Family}/ImportPreview`
 * (a dry run answering errors per row and cell) and `POST /api/{Family}/Import` (one transaction). The
 * columns are the fields Add accepts (files, passwords and lines excepted) and the school a reference
 * follows; references are written by their name or code.
 */
export interface ImportDef {
  /**
   * Rows of the template's example sheet, in wire form (enum values, cents, YYYY-MM-DD). References are
   * left out: the template names rows of the caller's own scope there, so the examples import as they are.
   */
  examples: readonly Readonly<Record<string, string | number | boolean>>[];
}

/** Declares a family; the identity function keeps literal types and reads well at the call site. */
export function defineResource<const T extends ResourceDef>(def: T): T {
  return def;
}

/** Converts a camelCase field name to its snake_case column name. */
export function columnName(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

export const isListed = (f: FieldDef): boolean => f.list !== false && f.kind !== 'password';
/** A field kept outside the family's own table (a multiple reference): never a column. */
export const isLinkField = (f: FieldDef): boolean => f.kind === 'reference' && f.multiple === true;
/** A field that is not a column of the family's own table: link references and lines. */
export const isStoredElsewhere = (f: FieldDef): boolean => isLinkField(f) || f.kind === 'lines' || f.computed === true;
export const isInForm = (f: FieldDef): boolean => f.form ?? !(f.readOnly || f.computed);
export const isExported = (f: FieldDef): boolean => (f.exported ?? isListed(f)) && f.kind !== 'password';

/** The verb of a toggle call: `state` → `UpdateState` (POST /api/{Family}/UpdateState). */
export function toggleVerb(field: string): string {
  return `Update${field.charAt(0).toUpperCase()}${field.slice(1)}`;
}

/** The path of a family call. */
export function resourcePath(family: string, verb: string): string {
  return `/api/${family}/${verb}`;
}
