/** The signed-in context a request carries once `app.authenticate` has run. */
export type ActiveSession = {
  id: string;
  userId: number;
  tenantId: number;
  roleId: number | null;
  applicationId: number | null;
  workbenchId: number | null;
  enterpriseId: number | null;
  /**
   * Set when a service account's access token made the request (ADR 056): no person and no
   * session row stand behind it (`id` is the nil UUID, `userId` 0); `roleId` is its role.
   */
  serviceAccount?: { clientId: string; name: string; nameEn: string } | undefined;
};
