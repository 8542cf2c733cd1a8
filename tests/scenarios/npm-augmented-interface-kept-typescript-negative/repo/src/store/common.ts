export default function common(state = { theme: "light" }) {
  return state;
}
