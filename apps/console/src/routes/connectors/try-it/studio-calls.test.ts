import { describe, expect, it } from 'vitest';
import { browseOptions, collectionOf, nextPageToken, segmentsOf } from './studio-calls.ts';

describe('Studio’s call shapes', () => {
  it('browse: pages of 15 from an empty token, filter [""] unless the connector cannot filter', () => {
    expect(browseOptions({ collection: '/', pageToken: '', search: '', filtering: true })).toEqual({
      collection: '/',
      pageToken: '',
      pageSize: 15,
      filter: [''],
    });
    expect(browseOptions({ collection: '/a', pageToken: 't', search: 'x', filtering: false })).toEqual({
      collection: '/a',
      pageToken: 't',
      pageSize: 15,
    });
  });

  it('a folder’s collection: relativePath with the name added unless in it, one leading slash', () => {
    const folder = (relativePath: string | undefined, name = 'Summer') =>
      collectionOf(
        segmentsOf({ id: 'x', name, type: 1, ...(relativePath === undefined ? {} : { relativePath }) }),
      );
    expect(folder('/Photos/')).toBe('/Photos/Summer');
    expect(folder('/Photos/Summer')).toBe('/Photos/Summer');
    expect(folder('//Photos/')).toBe('/Photos/Summer');
    expect(folder('\\Photos\\')).toBe('/Photos/Summer');
    // As Studio builds it: no separator is added, and an empty relativePath is the root.
    expect(folder('Photos')).toBe('/PhotosSummer');
    expect(folder('')).toBe('/');
    expect(folder(undefined)).toBe('/');
    expect(collectionOf([])).toBe('/');
  });

  it('the next page: a token as given, the nextPageToken of an absolute URL, empty ends the list', () => {
    expect(nextPageToken('2')).toBe('2');
    expect(nextPageToken('https://dam.example.com/assets?nextPageToken=abc%3D&page=2')).toBe('abc=');
    expect(nextPageToken('https://dam.example.com/assets?page=2')).toBe('');
    expect(nextPageToken('')).toBe('');
    expect(nextPageToken(undefined)).toBe('');
    expect(nextPageToken(null)).toBe('');
  });
});
