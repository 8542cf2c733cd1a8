import { createForm, validateSync } from "@lumen/forms";

const form = createForm({ fields: ["email", "password"] });

export function submit(values: Record<string, string>): boolean {
  const errors = validateSync(form, values);
  return Object.keys(errors).length === 0;
}
