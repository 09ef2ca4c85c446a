import { describe, expect, it } from 'vitest';
import { downloadDisplay } from './download-display.ts';

describe('downloadDisplay', () => {
  it('draws the allow-listed raster types, with the type the blob gets normalised', () => {
    for (const type of ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp'])
      expect(downloadDisplay(type)).toEqual({ as: 'image', blobType: type });
    expect(downloadDisplay(' Image/PNG ; charset=binary')).toEqual({ as: 'image', blobType: 'image/png' });
  });

  it('saves SVG as a file, and marks it for the sandboxed frame only', () => {
    expect(downloadDisplay('image/SVG+xml; charset=utf-8')).toEqual({
      as: 'svg',
      blobType: 'application/octet-stream',
    });
  });

  it('offers everything else as a file to save: HTML, XML, scripts, no type, look-alikes', () => {
    for (const type of [
      'image/svg',
      'text/html',
      'application/xhtml+xml',
      'text/xml',
      'application/javascript',
      'application/pdf',
      '',
      'image/png+xml',
      'image/pngx',
      'text/html; image/png',
    ])
      expect(downloadDisplay(type)).toEqual({ as: 'file', blobType: 'application/octet-stream' });
  });
});
