import type { Connector, Media } from '@chili-publish/studio-connectors';

// What the SDK's current interface adds to its release on npm (1.14): uploads of files the platform holds
// (`FilePointer`), sent as a `StudioFormData`, and the `upload` capability. The runtime defines both globals.
type FilePointer = { id: string; url: string; name: string };
interface StudioFormData {
  append(name: string, value: string | FilePointer, filename?: string): void;
}
declare const StudioFormData: { new (): StudioFormData };
type Runtime = Omit<Connector.ConnectorRuntimeContext, 'fetch'> & {
  fetch(
    url: string,
    init: Omit<Connector.ChiliRequestInit, 'body'> & { body?: string | StudioFormData | FilePointer | null },
  ): Promise<Connector.ChiliResponse>;
};
type Capabilities = Media.MediaConnectorCapabilities & { upload: boolean };

/** A file or a folder as the Acme Library answers it; `path` is the folder holding it, `/` first and last. */
type Entry = {
  kind: 'file' | 'folder';
  id: string;
  name: string;
  path: string;
  format?: string;
  width?: number;
  height?: number;
  updated?: string;
};
type Listing = { items: Entry[]; page: number; pages: number };

/** Studio browses with pages of 15; a `pageSize` of 0 (some callers send it) asks for the usual page. */
const DEFAULT_PAGE_SIZE = 15;
const DEFAULT_UPLOAD_FOLDER = '/Uploads/';

/** The library's rendition for each preview Studio asks for: grid pictures are `mediumres`, lists `thumbnail`. */
const renditions: Record<Media.DownloadType, string> = {
  thumbnail: 'small',
  mediumres: 'medium',
  highres: 'large',
  fullres: 'source',
  original: 'source',
};

/**
 * A media connector for a digital asset manager with folders (the platform injects its API key). It answers the
 * calls GraFx Studio makes (docs/writing-connectors.md): browsing a folder, a search from the root, the next page,
 * opening a folder by the `relativePath` and `name` of its item, resolving one asset by id with
 * `query({filter: [id], pageSize: 1})`, pictures per preview type, and uploads into a configurable folder.
 */
export default class AcmeLibraryConnector implements Media.MediaConnector {
  constructor(private readonly runtime: Runtime) {}

  async query(options: Connector.QueryOptions, context: Connector.Dictionary): Promise<Media.MediaPage> {
    const pageSize = options.pageSize > 0 ? options.pageSize : DEFAULT_PAGE_SIZE;
    const page = options.pageToken ? Number(options.pageToken) : 1;
    const term = (options.filter ?? []).find((value) => value.trim() !== '')?.trim() ?? '';
    // Studio resolves an asset it stored by id: one item, the filter holding the id.
    if (term !== '' && options.pageSize === 1) {
      const found = await this.entry(term);
      if (found !== undefined) return { pageSize: 1, data: [this.media(found)], links: { nextPage: '' } };
    }
    const paging = `page=${page}&per_page=${pageSize}`;
    const listing = (await this.json(
      term !== ''
        ? `/v1/search?q=${encodeURIComponent(term)}&${paging}`
        : `/v1/folders?path=${encodeURIComponent(this.folderOf(options.collection, context))}&${paging}`,
    )) as Listing;
    return {
      pageSize,
      data: listing.items.map((entry) => this.media(entry)),
      links: { nextPage: listing.page < listing.pages ? String(listing.page + 1) : '' },
    };
  }

  async detail(id: string): Promise<Media.MediaDetail> {
    const found = await this.entry(id);
    if (found === undefined) throw new ConnectorHttpError(404, `no file ${id} in the library`);
    return { ...this.media(found), width: found.width, height: found.height };
  }

  async download(
    id: string,
    previewType: Media.DownloadType,
    intent: Media.DownloadIntent,
  ): Promise<Connector.ArrayBufferPointer> {
    // Print wants the source whatever preview was named; the screen takes the rendition of its size.
    const rendition = intent === 'print' && previewType !== 'thumbnail' ? 'source' : renditions[previewType];
    const response = await this.runtime.fetch(
      `${this.base()}/v1/files/${encodeURIComponent(id)}/renditions/${rendition}`,
      { method: 'GET' },
    );
    if (!response.ok)
      throw new ConnectorHttpError(response.status, `download of ${id}: ${response.statusText}`);
    return response.arrayBuffer;
  }

  /** The files Studio's user picked, posted in one multipart request into the upload folder. */
  async upload(filePointers: FilePointer[], context: Connector.Dictionary): Promise<Media.Media[]> {
    const form = new StudioFormData();
    for (const file of filePointers) form.append('file', file, file.name);
    const folder = this.uploadFolder(context);
    const response = await this.runtime.fetch(
      `${this.base()}/v1/uploads?path=${encodeURIComponent(folder)}`,
      { method: 'POST', body: form },
    );
    if (!response.ok)
      throw new ConnectorHttpError(response.status, `upload into ${folder}: ${response.text}`);
    return (JSON.parse(response.text) as { items: Entry[] }).items.map((entry) => this.media(entry));
  }

  getConfigurationOptions(): Connector.ConnectorConfigValue[] | null {
    return [{ name: 'uploadFolder', displayName: 'Upload folder', type: 'text' }];
  }

  getCapabilities(): Capabilities {
    return { query: true, detail: true, filtering: true, metadata: true, upload: true };
  }

  /** A folder is `type: 1`; Studio opens it with the collection `relativePath + name`. */
  private media(entry: Entry): Media.Media {
    const metaData: Connector.Dictionary = {};
    if (entry.format !== undefined) metaData.format = entry.format;
    if (entry.updated !== undefined) metaData.updated = entry.updated;
    return {
      id: entry.id,
      name: entry.name,
      relativePath: entry.path,
      type: entry.kind === 'folder' ? 1 : 0,
      metaData,
      ...(entry.format === undefined ? {} : { extension: entry.format }),
    };
  }

  /** The folder to list: the collection Studio sent (`/` at first), or the upload folder when Studio asks for it. */
  private folderOf(collection: string | null, context: Connector.Dictionary): string {
    if (context.searchInUploadFolder === true) return this.uploadFolder(context);
    return this.asFolder(collection ?? '/');
  }

  private uploadFolder(context: Connector.Dictionary): string {
    const configured = context.uploadFolder;
    return typeof configured === 'string' && configured.trim() !== ''
      ? this.asFolder(configured.trim())
      : DEFAULT_UPLOAD_FOLDER;
  }

  /** `/Brand/Logos` or `Brand/Logos/` → `/Brand/Logos/`, as the library names folders. */
  private asFolder(path: string): string {
    const inner = path.split('/').filter((part) => part !== '');
    return inner.length === 0 ? '/' : `/${inner.join('/')}/`;
  }

  /** One file by id, or undefined when the library has none (404). */
  private async entry(id: string): Promise<Entry | undefined> {
    const response = await this.runtime.fetch(`${this.base()}/v1/files/${encodeURIComponent(id)}`, {
      method: 'GET',
      headers: { Accept: 'application/json' },
    });
    if (response.status === 404) return undefined;
    if (!response.ok) throw new ConnectorHttpError(response.status, `GET file ${id}: ${response.statusText}`);
    return JSON.parse(response.text) as Entry;
  }

  private base(): string {
    const base = this.runtime.options.baseUrl;
    if (typeof base !== 'string' || base === '') {
      throw new ConnectorHttpError(
        400,
        'the option baseUrl is not set; publish the connector with -ro baseUrl=<url>',
      );
    }
    return base.replace(/\/+$/, '');
  }

  private async json(path: string): Promise<unknown> {
    const response = await this.runtime.fetch(`${this.base()}${path}`, {
      method: 'GET',
      headers: { Accept: 'application/json' },
    });
    if (!response.ok) throw new ConnectorHttpError(response.status, `GET ${path}: ${response.statusText}`);
    return JSON.parse(response.text);
  }
}
