/** The signed-in context a request carries once `app.authenticate` has run. */
export type ActiveSession = {
  id: string;
  userId: number;
  tenantId: number;
  roleId: number | null;
  applicationId: number | null;
  workbenchId: number | null;
  enterpriseId: number | null;
};
