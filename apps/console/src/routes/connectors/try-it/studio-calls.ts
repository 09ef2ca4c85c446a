/**
 * The arguments GraFx Studio's editor gives a connector (its media browser, image variables and data sources), so
 * that Try it calls a connector exactly as Studio will. Pure functions: the panels call them, tests read them.
 */

/** A media item as Studio reads it: `type` 1 is a folder, anything else a file. */
export type MediaItem = {
  id: string;
  name: string;
  type?: number;
  relativePath?: string;
  extension?: string;
};

export type MediaCapabilities = {
  query?: boolean;
  detail?: boolean;
  filtering?: boolean;
  upload?: boolean;
};

export type DataCapabilities = {
  filtering?: boolean;
  sorting?: boolean;
  model?: boolean;
  dataSourceVariable?: boolean;
};

/** Studio's media browser asks for pages of 15. */
export const BROWSE_PAGE_SIZE = 15;
/** Studio's data sources ask for pages of 50. */
export const DATA_PAGE_SIZE = 50;

export const isFolder = (item: MediaItem) => item.type === 1;

/**
 * A page of a collection, or of a search (which always starts at the root): `filter` is left out when the connector
 * says it cannot filter; without a search it is `[""]`, as Studio sends it.
 */
export const browseOptions = (params: {
  collection: string;
  pageToken: string;
  search: string;
  filtering: boolean;
}) => ({
  collection: params.collection,
  pageToken: params.pageToken,
  pageSize: BROWSE_PAGE_SIZE,
  ...(params.filtering ? { filter: [params.search] } : {}),
});

/** The context of a browse: what the configuration fields hold, and Studio's flag (never the upload folder). */
export const browseContext = (context: Record<string, unknown>) => ({
  ...context,
  searchInUploadFolder: false,
});

/** The folder path Studio builds from a folder item: `relativePath`, with the folder's name added unless it is in it. */
const folderPath = (item: MediaItem) => {
  const relativePath = item.relativePath ?? '';
  if (!relativePath) return '/';
  return relativePath.includes(item.name) ? relativePath : relativePath + item.name;
};

/** The path's segments, as Studio keeps them: backslashes read as slashes, leading slashes dropped. */
export const segmentsOf = (item: MediaItem): string[] =>
  folderPath(item).replaceAll('\\', '/').replace(/^\/+/, '').split('/');

/** The `collection` of a query for the folder at these segments: one leading slash (the root is `/`). */
export const collectionOf = (segments: string[]) => `/${segments.join('/')}`;

/**
 * The token of the next page from a page's `links.nextPage`: an absolute URL gives its `nextPageToken` query
 * parameter (empty when it has none), anything else is the token itself; empty or missing ends the list.
 */
export const nextPageToken = (nextPage: unknown): string => {
  if (typeof nextPage !== 'string' || nextPage === '') return '';
  if (!URL.canParse(nextPage)) return nextPage;
  return new URL(nextPage).searchParams.get('nextPageToken') ?? '';
};
