import { List } from "seqkit";

export default function reducer(state = { items: List() }) {
  return state;
}
