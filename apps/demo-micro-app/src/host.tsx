import type { MicroHostProps } from '@portal/contracts';
import { createContext, useContext } from 'react';
import { texts, type Texts } from './texts';

export const HostContext = createContext<MicroHostProps | null>(null);

export function useHost(): MicroHostProps {
  const host = useContext(HostContext);
  if (!host) throw new Error('no host');
  return host;
}

export function useTexts(): Texts {
  return texts[useHost().language];
}
