/**
 * A text in both of the console's languages. It sits apart from the declarations that use it so the
 * message catalogue (which phones.ts and the declarations read) does not import them back.
 */
export interface Label {
  zh: string;
  en: string;
}
