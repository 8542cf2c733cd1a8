// import { zonedNow } from 'zone-clock';
/* const legacy = require('zone-clock'); // kept for the old reports */
import { Panel } from "ui-panels";

export function render(shifts: string[]): string {
  const clock = new Date().toISOString();
  return new Panel(shifts.join(", ") + " @ " + clock).toString();
}
