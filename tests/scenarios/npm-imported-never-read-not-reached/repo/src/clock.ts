import ZoneClock from "zone-clock";
import { Panel } from "ui-panels";

// shift times are shown as ISO strings for now
export function stamp(p: Panel): string {
  return p.toString() + new Date().toISOString();
}
