import { smith } from 'fakesmith';

export function motto(): string {
  return smith.company.catchPhrase();
}
