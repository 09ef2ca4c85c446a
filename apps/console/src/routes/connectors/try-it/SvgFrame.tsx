import { useCallback, useEffect, useRef } from 'react';

/**
 * The frame's document: an `<img>` and the frame's one script (public/svg-frame.js), under the console's policy,
 * which a srcdoc frame inherits.
 */
const FRAME = `<!doctype html><meta charset="utf-8"><style>html,body{margin:0;height:100%}img{display:block;width:100%;height:100%;object-fit:contain}</style><img alt=""><script src="${import.meta.env.BASE_URL}svg-frame.js"></script>`;

/**
 * An SVG download drawn as Studio would show it, safely: in a frame sandboxed without `allow-same-origin` (an opaque
 * origin), the frame's script makes the blob (`image/svg+xml`) and draws it in an `<img>`, where an SVG never runs
 * script; its `blob:` URL belongs to the opaque origin, so no tab opens it as a document of the console's.
 * `decorative` frames (a grid picture inside its button) stay out of the tab order and the accessibility tree.
 */
export const SvgFrame = ({
  bytes,
  name,
  className,
  decorative = false,
}: {
  bytes: Uint8Array;
  name: string;
  className?: string;
  decorative?: boolean;
}) => {
  const frame = useRef<HTMLIFrameElement>(null);
  const send = useCallback(
    () => frame.current?.contentWindow?.postMessage({ bytes, name }, '*'),
    [bytes, name],
  );
  // The frame's script listens once the frame has loaded (its script is parser-blocking); new bytes go at once.
  useEffect(() => {
    send();
  }, [send]);
  return (
    <iframe
      ref={frame}
      onLoad={send}
      sandbox="allow-scripts"
      srcDoc={FRAME}
      title={name}
      className={className}
      {...(decorative ? { tabIndex: -1, 'aria-hidden': true } : {})}
    />
  );
};
