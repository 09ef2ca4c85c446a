import type { EnvironmentInput } from '../connectors/schemas.ts';

export type CreateMediaInput = EnvironmentInput & { body: { name: string } };
/** `/media/{mediaId}/...` or `/external-media/{externalMediaId}/...`. */
export type MediaInput = EnvironmentInput & ({ mediaId: string } | { externalMediaId: string });
export type MediaSubjectTypeInput = MediaInput & { subjectTypeId: string };
export type UpdateMediaSubjectTypesInput = MediaInput & {
  body: { subjectTypes: { id: string; assigned: boolean }[] };
};

export type MediaSubjectTypeView = {
  subjectTypeId: string;
  name: string;
  assigned: boolean;
  updatedAt: string | null;
};
export type MediaSubjectTypesView = { id: string; subjectTypes: MediaSubjectTypeView[] };

/** Which media an endpoint serves: `/media/...` (false) or `/external-media/...` (true). */
export type MediaKind = { external: boolean };

export const mediaLabel = ({ external }: MediaKind) => (external ? 'External media' : 'Media');

export const mediaIdOf = (input: MediaInput): string =>
  'mediaId' in input ? input.mediaId : input.externalMediaId;
