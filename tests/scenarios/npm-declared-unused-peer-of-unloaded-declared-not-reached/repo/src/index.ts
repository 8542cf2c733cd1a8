export function render(shifts: string[]): string {
  const clock = new Date().toISOString();
  return `<ul>${shifts.map((s) => `<li>${s} @ ${clock}</li>`).join("")}</ul>`;
}
