import type { ReactNode } from 'react';

// our own wrapper: `exitFirst` is its prop, not the library's
export function Fade({ exitFirst, children }: { exitFirst?: boolean; children: ReactNode }) {
  return <div data-exit-first={exitFirst ? 'yes' : 'no'}>{children}</div>;
}
