/** The part of unzipper (exceljs's own zip reader) the import's zip bounds use; the package ships no types. */
declare module 'unzipper' {
  import type { Duplex, PassThrough } from 'node:stream';

  /** One part of the archive, its bytes inflated as they are read. */
  export interface Entry extends PassThrough {
    path: string;
    type: 'File' | 'Directory';
    autodrain(): unknown;
  }

  /** Reads a zip from the front, one local header after another, as exceljs's WorkbookReader does; emits 'entry'. */
  export function Parse(options?: { forceStream?: boolean }): Duplex;

  const unzipper: { Parse: typeof Parse };
  export default unzipper;
}
