import type { ReactNode } from 'react';
import './account-page.css';

/** The card both password pages sit in: title, language toggle, content. */
export function AccountCard({ title, tools, children }: { title: string; tools?: ReactNode; children: ReactNode }) {
  return (
    <div className="acct-page">
      <main className="acct-card">
        <div className="acct-head">
          <h1>{title}</h1>
          {tools}
        </div>
        {children}
      </main>
    </div>
  );
}
