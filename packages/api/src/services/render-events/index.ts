import { ingestRenderEvents } from './ingest.ts';

export { type IngestRenderEventsInput, type IngestRenderEventsOutput, ingestRenderEvents } from './ingest.ts';

export const renderEvents = { ingest: ingestRenderEvents } as const;
