import { downloadDisplay } from '@platform/core/download-display';
import type { InvocationResult } from '@platform/runtime';
import { useEffect, useMemo, useState } from 'react';
import { SvgFrame } from './SvgFrame.tsx';

export type Downloaded = Extract<InvocationResult, { kind: 'binary' }>;

/**
 * The object URL of a download as the page may use it (see `downloadDisplay`): a raster image gets a blob of its
 * exact type, anything else a blob of `application/octet-stream`, which a browser only ever saves. Revoked when the
 * download changes or the view goes.
 */
export const useDownloadUrl = (downloaded: Downloaded | undefined) => {
  const display = useMemo(
    () => (downloaded ? downloadDisplay(downloaded.contentType) : undefined),
    [downloaded],
  );
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    if (!downloaded || !display) return;
    const made = URL.createObjectURL(new Blob([downloaded.bytes as BlobPart], { type: display.blobType }));
    setUrl(made);
    return () => {
      URL.revokeObjectURL(made);
      setUrl(undefined);
    };
  }, [downloaded, display]);
  return { display, url };
};

const size = (bytes: number) => `${bytes.toLocaleString('en')} bytes`;

/**
 * A download's content type and size, then the picture (raster types), or a link that saves the file (with SVG also
 * drawn in its sandboxed frame).
 */
export const DownloadView = ({ downloaded, name }: { downloaded: Downloaded; name: string }) => {
  const { display, url } = useDownloadUrl(downloaded);
  return (
    <figure className="try-download">
      <figcaption>
        {downloaded.contentType || 'no content type'}, {size(downloaded.bytes.length)}
      </figcaption>
      {display?.as === 'svg' && <SvgFrame bytes={downloaded.bytes} name={name} className="try-svg" />}
      {url &&
        (display?.as === 'image' ? (
          <img className="try-picture" src={url} alt={name} />
        ) : (
          <a href={url} download={name}>
            Save {name}
          </a>
        ))}
    </figure>
  );
};
