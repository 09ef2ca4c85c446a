/** The vision subject types every new environment starts with (docs/environment-api.md). */
export const STANDARD_SUBJECT_TYPES = [
  'Person',
  'Animal',
  'Food',
  'Vehicle',
  'Building',
  'Landscape',
  'Product',
  'Text',
  'Logo',
  'Plant',
] as const;
