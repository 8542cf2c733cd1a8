import { useEffect, useRef } from "react";
import { Graph } from "graphkit";

export default function GraphView({ config }) {
  const el = useRef(null);
  useEffect(() => {
    const graph = new Graph(el.current, config);
    return () => graph.destroy();
  }, [config]);
  return <div ref={el} />;
}
