export const trafficConfig = {
  series: [
    { name: "requests", type: "area", data: [] },
    { name: "errors", type: "line", data: [] },
  ],
  legend: { align: "right" },
};
