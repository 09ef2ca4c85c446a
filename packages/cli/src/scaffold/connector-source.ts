/** The `connector.ts` a new project starts from: every method the runtime calls, answering sample content. */
const mediaSource = `import type { Connector, Media } from '@chili-publish/studio-connectors';

/**
 * A media connector: lists, describes and downloads assets of one media source. It starts with one sample asset
 * (a picture in a data: URL, which the runtime answers itself), so build, info, test, stress and debug work at once;
 * replace the sample with calls to your API: this.runtime.fetch('https://api.example.com/...').
 */
const sample: Media.MediaDetail = {
  id: 'sample-1',
  name: 'Sample picture',
  relativePath: '/',
  type: 0,
  extension: 'png',
  metaData: {},
  width: 64,
  height: 64,
};
// A 64×64 PNG: a raster picture, which the console and the debug page draw (an SVG they offer as a file instead).
const samplePicture =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAIAAAAlC+aJAAAAT0lEQVR42u3PQQkAAAgEsGth/xyC2YzgWxiswFLTr0VAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBA4LJIlwF4frg18AAAAABJRU5ErkJggg==';

export default class MediaSourceConnector implements Media.MediaConnector {
  constructor(private readonly runtime: Connector.ConnectorRuntimeContext) {}

  async query(options: Connector.QueryOptions, context: Connector.Dictionary): Promise<Media.MediaPage> {
    return { pageSize: options.pageSize, data: [sample], links: { nextPage: '' } };
  }

  async detail(id: string, context: Connector.Dictionary): Promise<Media.MediaDetail> {
    if (id !== sample.id) throw new ConnectorHttpError(404, \`no media \${id}\`);
    return sample;
  }

  async download(
    id: string,
    previewType: Media.DownloadType,
    intent: Media.DownloadIntent,
    context: Connector.Dictionary,
  ): Promise<Connector.ArrayBufferPointer> {
    const response = await this.runtime.fetch(samplePicture, { method: 'GET' });
    if (!response.ok) throw new ConnectorHttpError(response.status, \`download of \${id} failed\`);
    return response.arrayBuffer;
  }

  getConfigurationOptions(): Connector.ConnectorConfigValue[] | null {
    return [];
  }

  getCapabilities(): Media.MediaConnectorCapabilities {
    return { query: true, detail: true, filtering: false, metadata: false };
  }
}
`;

const dataSource = `import type { Connector } from '@chili-publish/studio-connectors';

// The data connector interface of the platform (types written here: the SDK release on npm has media and fonts).
type PageConfig = { filters?: unknown[] | null; sorting?: unknown[] | null; limit: number; continuationToken?: string | null };
type DataItem = Record<string, string | number | boolean | null>;
type DataPage = { data: DataItem[]; continuationToken?: string | null };
type DataModel = { properties: { name: string; type: 'singleLine' | 'multiLine' | 'number' | 'boolean' | 'date' }[] };

/**
 * A data connector: serves pages of records and the model that describes them. It starts with sample rows so build,
 * info, test and debug work at once; replace them with calls to your API: this.runtime.fetch('https://api.example.com/...').
 */
const rows: DataItem[] = [
  { id: 1, name: 'First row', inStock: true },
  { id: 2, name: 'Second row', inStock: false },
];

export default class DataSourceConnector {
  constructor(private readonly runtime: Connector.ConnectorRuntimeContext) {}

  async getPage(config: PageConfig, context: Connector.Dictionary): Promise<DataPage> {
    const start = config.continuationToken ? Number(config.continuationToken) : 0;
    const end = start + config.limit;
    return { data: rows.slice(start, end), continuationToken: end < rows.length ? String(end) : null };
  }

  async getModel(context: Connector.Dictionary): Promise<DataModel> {
    return {
      properties: [
        { name: 'id', type: 'number' },
        { name: 'name', type: 'singleLine' },
        { name: 'inStock', type: 'boolean' },
      ],
    };
  }

  getConfigurationOptions(): Connector.ConnectorConfigValue[] | null {
    return [];
  }

  getCapabilities() {
    return { filtering: false, sorting: false, model: true };
  }
}
`;

export const connectorSource = (type: 'media' | 'data'): string =>
  type === 'media' ? mediaSource : dataSource;
