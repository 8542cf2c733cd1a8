export const trafficConfig = {
  series: [
    // was { type: "stackedArea" } before the 3.x docs recommended `area` + `stacked`
    { name: "requests", type: "area", stacked: true, data: [] },
    { name: "errors", type: "line", data: [] },
  ],
  legend: { align: "right" },
};
