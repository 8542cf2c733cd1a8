import { smith } from 'fakesmith';
import { saveCompany } from '../src/db';
import { motto } from '../src/motto';

smith.locale = 'ru';

export async function seed(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await saveCompany({ name: smith.company.companyName(), motto: motto() });
  }
}

seed(20).catch((err) => {
  console.error(err);
  process.exit(1);
});
