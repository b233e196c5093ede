/** The parts of unzipper (exceljs's own zip reader) the import uses; the package ships no types. */
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

  /** One part as the central directory lists it; `stream()` inflates it from its local header. */
  export interface CentralDirectoryFile {
    path: string;
    type: 'File' | 'Directory';
    uncompressedSize: number;
    stream(): PassThrough;
  }

  /** The archive's central directory: every part, reachable in any order. */
  export interface CentralDirectory {
    files: CentralDirectoryFile[];
  }

  /** Opens a zip by its central directory (random access). */
  export const Open: { file(path: string): Promise<CentralDirectory> };

  const unzipper: { Parse: typeof Parse; Open: typeof Open };
  export default unzipper;
}
