export type ListAuditInput = {
  subscriptionId?: string | undefined;
  environment?: string | undefined;
  actor?: string | undefined;
  action?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  limit?: number | undefined;
  nextPageToken?: string | undefined;
};

export const DEFAULT_AUDIT_PAGE = 50;
export const MAX_AUDIT_PAGE = 200;
