import { useSelector } from "storekit";

export default function App() {
  const common = useSelector((state) => state.common);
  return <main className={common.theme} />;
}
