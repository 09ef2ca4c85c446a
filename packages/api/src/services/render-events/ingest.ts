import {
  describeUnknownRenderEventKey,
  parseOrThrow,
  type RenderEvent,
  RenderEventBatch,
} from '@platform/core';
import { ingestRenderEvents as storeRenderEvents } from '@platform/store';
import type { Service } from '../context.ts';

/** `body` is the request's array of render events (docs/data-file.md). */
export type IngestRenderEventsInput = { body: readonly RenderEvent[] | unknown };
export type IngestRenderEventsOutput = { accepted: number };

/**
 * `POST /api/v1/render-events` (token role `platform:ingest`, checked by the transport): adds the events to the
 * daily roll-up, all or nothing; an unknown environment guid rejects the batch with 400 naming the element.
 */
export const ingestRenderEvents: Service<IngestRenderEventsInput, IngestRenderEventsOutput> = async (
  ctx,
  input,
) => {
  const events = parseOrThrow(
    RenderEventBatch,
    input.body,
    'list of render events',
    describeUnknownRenderEventKey,
  );
  // The transports name the request's list `body`: a bad element is `body[i].environmentGuid`, as zod's are.
  const accepted = await storeRenderEvents(ctx.database, events, { path: 'body' });
  ctx.log.debug({ accepted }, 'render events ingested');
  return { accepted };
};
