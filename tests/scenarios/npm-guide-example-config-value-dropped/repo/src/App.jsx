export default function App () {
  return <main>shop</main>
}
