/**
 * How a page of the platform's origin (the console's Try it, `connector-cli debug`) may show the bytes a connector
 * downloaded. The content type is the upstream's word, so nothing it names may become a document of our origin: only
 * raster images, which a browser decodes without running anything, are drawn (from a blob typed with exactly that
 * type); everything else, SVG and HTML included, is offered as a file to save, from a blob typed
 * `application/octet-stream`, which a browser saves and never renders, whatever tab opens it. SVG may also be drawn,
 * but only in an `<img>` inside a sandboxed frame of an opaque origin, from a blob that frame makes (`as: 'svg'`).
 */
export const RASTER_IMAGE_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
] as const;

export type RasterImageType = (typeof RASTER_IMAGE_TYPES)[number];

export type DownloadDisplay =
  | { as: 'image'; blobType: RasterImageType }
  | { as: 'svg' | 'file'; blobType: 'application/octet-stream' };

/** The media type of a Content-Type value, lower case, without parameters (`Image/PNG; q=1` → `image/png`). */
const essence = (contentType: string) => (contentType.split(';')[0] ?? '').trim().toLowerCase();

export const downloadDisplay = (contentType: string): DownloadDisplay => {
  const type = essence(contentType);
  const raster = RASTER_IMAGE_TYPES.find((allowed) => allowed === type);
  if (raster) return { as: 'image', blobType: raster };
  return { as: type === 'image/svg+xml' ? 'svg' : 'file', blobType: 'application/octet-stream' };
};
