/** The vision subject types every new environment starts with (CONTRACT.md §7). */
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
