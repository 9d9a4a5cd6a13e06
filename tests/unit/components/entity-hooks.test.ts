import { describe, expect, it } from 'vitest';
import { normalizeQuery, toParams } from '../../../src/lib/entity-hooks';
import { http } from '../../../src/lib/http';

describe('toParams (getAll / getAllForSelect query string)', () => {
  it('sends page, pageSize, a trimmed searchTerm and filters as filters[key]', () => {
    expect(
      toParams({
        page: 2,
        pageSize: 10,
        searchTerm: '  ros ',
        filters: { name: ' Lazio ', isActive: true, regionId: 3 },
      }),
    ).toEqual({
      page: 2,
      pageSize: 10,
      searchTerm: 'ros',
      'filters[name]': 'Lazio',
      'filters[isActive]': 'true',
      'filters[regionId]': 3,
    });
  });

  it('skips empty text, false booleans, null ids and an empty searchTerm', () => {
    expect(
      toParams({
        page: 1,
        pageSize: 5,
        searchTerm: ' ',
        filters: { name: '', code: '  ', isActive: false, regionId: null },
      }),
    ).toEqual({ page: 1, pageSize: 5 });
  });

  it('joins selectedIds with commas', () => {
    expect(toParams({ page: 1, pageSize: 20, selectedIds: [1, 5] })).toEqual({
      page: 1,
      pageSize: 20,
      selectedIds: '1,5',
    });
  });

  it('gives a URL whose decoded query has the literal filters[key] names', () => {
    const url = http.getUri({
      url: 'region/getAll',
      params: toParams({ page: 1, pageSize: 5, filters: { name: 'ab c' } }),
    });
    const query = new URL(url, 'http://localhost').searchParams;
    expect(Object.fromEntries(query.entries())).toEqual({
      page: '1',
      pageSize: '5',
      'filters[name]': 'ab c',
    });
  });

  it('gives equal queries one cache key', () => {
    expect(
      normalizeQuery({ page: 1, pageSize: 5, searchTerm: '', filters: { name: '', isActive: false } }),
    ).toEqual(normalizeQuery({ page: 1, pageSize: 5 }));
  });
});
