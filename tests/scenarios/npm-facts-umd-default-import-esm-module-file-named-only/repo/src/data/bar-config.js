export default {
  type: "bar",
  data: { labels: ["Low", "Medium", "High"], datasets: [{ data: [3, 5, 2] }] },
};
