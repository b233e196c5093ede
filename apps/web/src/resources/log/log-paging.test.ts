import { describe, expect, it } from 'vitest';
import { firstLogPage, logPagingReducer } from './log-paging';

describe('logPagingReducer', () => {
  it('goes forward with the next cursors and back with the previous ones to the first page', () => {
    let state = firstLogPage(20);
    state = logPagingReducer(state, { type: 'next', cursor: 'after-page-1' });
    state = logPagingReducer(state, { type: 'next', cursor: 'after-page-2' });
    expect(state).toEqual({ cursor: 'after-page-2', pageNumber: 3, pageSize: 20 });
    state = logPagingReducer(state, { type: 'previous', cursor: 'before-page-3' });
    expect(state).toEqual({ cursor: 'before-page-3', pageNumber: 2, pageSize: 20 });
    // The server gives no previous cursor on the page after the first: back on the first page.
    expect(logPagingReducer(state, { type: 'previous', cursor: null })).toEqual({ pageNumber: 1, pageSize: 20 });
  });

  it('starts again on the first page when the filters or the page size change', () => {
    const deep = { cursor: 'after-page-7', pageNumber: 8, pageSize: 20 };
    expect(logPagingReducer(deep, { type: 'restart' })).toEqual({ pageNumber: 1, pageSize: 20 });
    expect(logPagingReducer(deep, { type: 'restart', pageSize: 50 })).toEqual({ pageNumber: 1, pageSize: 50 });
  });
});
