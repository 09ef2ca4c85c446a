/** The `connector.ts` a new project starts from: every method the runtime calls, none implemented yet. */
const mediaSource = `import type { Connector, Media } from '@chili-publish/studio-connectors';

/** A media connector: lists, describes and downloads assets of one media source. */
export default class MediaSourceConnector implements Media.MediaConnector {
  constructor(private readonly runtime: Connector.ConnectorRuntimeContext) {}

  async query(options: Connector.QueryOptions, context: Connector.Dictionary): Promise<Media.MediaPage> {
    return { pageSize: options.pageSize, data: [], links: { nextPage: '' } };
  }

  async detail(id: string, context: Connector.Dictionary): Promise<Media.MediaDetail> {
    throw new Error(\`detail of \${id}: not implemented yet\`);
  }

  async download(
    id: string,
    previewType: Media.DownloadType,
    intent: Media.DownloadIntent,
    context: Connector.Dictionary,
  ): Promise<Connector.ArrayBufferPointer> {
    throw new Error(\`download of \${id}: not implemented yet\`);
  }

  getConfigurationOptions(): Connector.ConnectorConfigValue[] | null {
    return [];
  }

  getCapabilities(): Media.MediaConnectorCapabilities {
    return { query: true, detail: false, filtering: false, metadata: false };
  }
}
`;

const dataSource = `import type { Connector, Data } from '@chili-publish/studio-connectors';

/** A data connector: serves pages of records and the model that describes them. */
export default class DataSourceConnector implements Data.DataConnector {
  constructor(private readonly runtime: Connector.ConnectorRuntimeContext) {}

  async getPage(config: Data.PageConfig, context: Connector.Dictionary): Promise<Data.DataPage> {
    return { data: [] };
  }

  async getModel(context: Connector.Dictionary): Promise<Data.DataModel> {
    return { properties: [] };
  }

  getConfigurationOptions(): Connector.ConnectorConfigValue[] | null {
    return [];
  }

  getCapabilities(): Data.DataConnectorCapabilities {
    return { filtering: false, sorting: false, model: true };
  }
}
`;

export const connectorSource = (type: 'media' | 'data'): string =>
  type === 'media' ? mediaSource : dataSource;
