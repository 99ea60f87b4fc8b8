/**
 * An independent CAS client from npm (`cas-authentication`, CAS 3.0 XML) validating one service
 * ticket against the sign-on server at `base` (for service http://oa.test): the session it keeps,
 * with the user and the attributes as that client read them.
 */
import CASAuthentication from 'cas-authentication';

export async function validateWithNpmClient(base: string, port: number, ticket: string) {
  const cas = new CASAuthentication({
    cas_url: `${base}/cas`,
    service_url: 'http://oa.test',
    cas_version: '3.0',
    session_info: 'cas_info',
  });
  cas.cas_port = port; // the package always uses port 80 for http
  const session: Record<string, unknown> = { cas_return_to: '/app/home' };
  await new Promise<void>((done, fail) =>
    cas._handleTicket(
      { url: `/app/home?ticket=${ticket}`, query: { ticket }, session },
      { redirect: () => done(), sendStatus: (code: number) => fail(new Error(`CAS client refused: ${code}`)) },
      () => undefined,
    ),
  );
  return session;
}
