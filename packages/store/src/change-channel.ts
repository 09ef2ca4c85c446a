/** The notification channel of migration 0003's triggers. */
export const CHANGES_CHANNEL = 'platform_changes';
