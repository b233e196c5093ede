/** Key paging of a log list: which cursor the current page was read with, and its number for display. */

export interface LogPagingState {
  /** The cursor of the current page; undefined = the first page. */
  cursor?: string;
  /** 1-based, shown beside the previous / next buttons (a log has no count to jump by). */
  pageNumber: number;
  pageSize: number;
}

export type LogPagingAction =
  | { type: 'next'; cursor: string }
  | { type: 'previous'; cursor: string | null }
  | { type: 'restart'; pageSize?: number };

/** Starts at the first page of `pageSize` rows. */
export const firstLogPage = (pageSize: number): LogPagingState => ({ pageNumber: 1, pageSize });

/**
 * Moves through the pages with the cursors the last answer gave: `next` with its nextCursor,
 * `previous` with its prevCursor (null: back on the first page); `restart` after a filter or size change.
 * @example logPagingReducer(state, { type: 'next', cursor: answer.nextCursor })
 */
export function logPagingReducer(state: LogPagingState, action: LogPagingAction): LogPagingState {
  switch (action.type) {
    case 'next':
      return { ...state, cursor: action.cursor, pageNumber: state.pageNumber + 1 };
    case 'previous':
      return action.cursor === null ? firstLogPage(state.pageSize) : { ...state, cursor: action.cursor, pageNumber: Math.max(1, state.pageNumber - 1) };
    case 'restart':
      return firstLogPage(action.pageSize ?? state.pageSize);
  }
}
