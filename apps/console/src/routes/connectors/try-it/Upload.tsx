import { useId, useState } from 'react';
import { FailureNote } from './FailureNote.tsx';
import type { MediaItem } from './studio-calls.ts';
import type { Call } from './use-sandbox.ts';

/**
 * Upload (connectors with `upload: true`): the picked files go to `upload(files, context)`; the runtime hands the
 * connector a `FilePointer` for each, whose bytes stay outside the sandbox.
 */
export const Upload = ({
  call,
  context,
  onUploaded,
}: {
  call: Call;
  context: Record<string, unknown>;
  onUploaded: () => void;
}) => {
  const id = useId();
  const [uploaded, setUploaded] = useState<MediaItem[]>();
  const [failure, setFailure] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const upload = async (picked: File[]) => {
    setBusy(true);
    setUploaded(undefined);
    setFailure(undefined);
    try {
      const files = await Promise.all(
        picked.map(async (file) => ({
          name: file.name,
          contentType: file.type || 'application/octet-stream',
          bytes: new Uint8Array(await file.arrayBuffer()),
        })),
      );
      const result = await call('upload', [files, context]);
      setUploaded(result.kind === 'json' && Array.isArray(result.value) ? (result.value as MediaItem[]) : []);
      onUploaded();
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-label="Upload files" className="try-upload">
      <h4>Upload files</h4>
      <label htmlFor={`${id}-files`}>Upload</label>
      <input
        id={`${id}-files`}
        type="file"
        multiple
        disabled={busy}
        onChange={(event) => {
          const picked = [...(event.currentTarget.files ?? [])];
          event.currentTarget.value = '';
          if (picked.length > 0) void upload(picked);
        }}
      />
      {failure !== undefined && <FailureNote failure={failure} kind="media" />}
      {uploaded && (
        <p role="status">
          Uploaded {uploaded.length === 1 ? '1 media' : `${uploaded.length} media`}
          {uploaded.length > 0 && `: ${uploaded.map((m) => m.name).join(', ')}`}
        </p>
      )}
    </section>
  );
};
