export const trafficConfig = {
  series: [
    { name: "requests", type: "stackedArea", data: [] },
    { name: "errors", type: "line", data: [] },
  ],
  legend: { align: "right" },
};
