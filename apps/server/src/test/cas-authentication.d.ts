/** The parts of the untyped `cas-authentication` package (an independent CAS client) the tests use. */
declare module 'cas-authentication' {
  interface Options {
    cas_url: string;
    service_url: string;
    cas_version?: '1.0' | '2.0' | '3.0';
    session_info?: string;
  }
  export default class CASAuthentication {
    constructor(options: Options);
    cas_port: number;
    _handleTicket(
      req: { url: string; query: { ticket: string }; session: Record<string, unknown> },
      res: { redirect(to: unknown): void; sendStatus(code: number): void },
      next: () => void,
    ): void;
  }
}
