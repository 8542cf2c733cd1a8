import ZoneClock from "zone-clock";
import { Panel } from "ui-panels";

export function stamp(p: Panel): string {
  return `${p.toString()} ${new ZoneClock("UTC").now()}`;
}
