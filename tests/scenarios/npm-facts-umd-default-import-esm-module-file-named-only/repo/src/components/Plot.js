import React, { useEffect, useRef } from "react";
import Plotkit from "plotkit";

export default function Plot({ config }) {
  const canvas = useRef(null);
  useEffect(() => {
    const plot = new Plotkit(canvas.current, config);
    return () => plot.destroy();
  }, [config]);
  return <canvas ref={canvas} />;
}
