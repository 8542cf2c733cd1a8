export interface Company {
  name: string;
  motto: string;
}

const rows: Company[] = [];

export async function saveCompany(company: Company): Promise<void> {
  rows.push(company);
}
