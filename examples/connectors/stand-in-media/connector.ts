import type { Connector, Media } from '@chili-publish/studio-connectors';

/** One asset as the stand-in media library answers it. */
type Asset = {
  id: string;
  name: string;
  folder: string;
  format: 'png' | 'svg';
  width: number;
  height: number;
  createdAt: string;
};

type AssetPage = { items: Asset[]; page: number; pageSize: number; total: number };

/**
 * A media connector on OAuth 2.0 client credentials (the platform injects the bearer token): JSON query and detail,
 * binary downloads. It talks to the platform's own stand-in media library (`/dev/stand-in/media` of a development
 * server), the way real connectors talk to a digital asset manager: page tokens are the next page number, a
 * non-OK answer becomes a ConnectorHttpError with the upstream status.
 */
export default class StandInMediaConnector implements Media.MediaConnector {
  constructor(private readonly runtime: Connector.ConnectorRuntimeContext) {}

  async query(options: Connector.QueryOptions, context: Connector.Dictionary): Promise<Media.MediaPage> {
    const pageSize = options.pageSize > 0 ? options.pageSize : 20;
    const page = options.pageToken ? Number(options.pageToken) : 1;
    const params = [`page=${page}`, `pageSize=${pageSize}`];
    const search = options.filter?.[0] ?? (typeof context.search === 'string' ? context.search : '');
    if (search) params.push(`search=${encodeURIComponent(search)}`);
    const body = (await this.json(`/media/assets?${params.join('&')}`)) as AssetPage;
    const more = body.page * body.pageSize < body.total;
    return {
      pageSize: body.pageSize,
      data: body.items.map((asset) => this.media(asset)),
      links: { nextPage: more ? String(body.page + 1) : '' },
    };
  }

  async detail(id: string): Promise<Media.MediaDetail> {
    const asset = (await this.json(`/media/assets/${encodeURIComponent(id)}`)) as Asset;
    return { ...this.media(asset), width: asset.width, height: asset.height };
  }

  async download(
    id: string,
    previewType: Media.DownloadType,
    intent: Media.DownloadIntent,
  ): Promise<Connector.ArrayBufferPointer> {
    // Thumbnails are small renditions; every other preview type is the full asset.
    const size = previewType === 'thumbnail' ? 'thumbnail' : 'original';
    const response = await this.runtime.fetch(
      `${this.base()}/media/assets/${encodeURIComponent(id)}/file?size=${size}&intent=${intent}`,
      { method: 'GET' },
    );
    if (!response.ok)
      throw new ConnectorHttpError(response.status, `download of ${id}: ${response.statusText}`);
    return response.arrayBuffer;
  }

  getConfigurationOptions(): Connector.ConnectorConfigValue[] | null {
    return [{ name: 'search', displayName: 'Search in names', type: 'text' }];
  }

  getCapabilities(): Media.MediaConnectorCapabilities {
    return { query: true, detail: true, filtering: true, metadata: true };
  }

  private media(asset: Asset): Media.Media {
    return {
      id: asset.id,
      name: asset.name,
      relativePath: `/${asset.folder}`,
      type: 0,
      extension: asset.format,
      metaData: { folder: asset.folder, createdAt: asset.createdAt },
    };
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
