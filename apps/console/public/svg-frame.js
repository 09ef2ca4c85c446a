// The one script of Try it's SVG frame (a classic script: the frame's origin is opaque, so a module would need CORS).
// The frame is sandboxed without allow-same-origin, so the blob made here belongs to that opaque origin: the SVG is
// drawn in an <img>, where it never runs script, and its blob: URL opens on no origin of the platform.
addEventListener('message', (event) => {
  if (event.source !== parent || !(event.data?.bytes instanceof Uint8Array)) return;
  const image = document.querySelector('img');
  image.alt = String(event.data.name ?? '');
  image.src = URL.createObjectURL(new Blob([event.data.bytes], { type: 'image/svg+xml' }));
});
