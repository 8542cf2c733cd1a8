import { Seq } from "seqkit";

export default function toPlain(state) {
  return Seq.isSeq(state) ? state.toJS() : state;
}
