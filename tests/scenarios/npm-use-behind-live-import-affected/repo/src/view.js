import { List } from "seqkit";

export function render(store) {
  return List(store.items).map((item) => `<li>${item}</li>`).join("");
}
