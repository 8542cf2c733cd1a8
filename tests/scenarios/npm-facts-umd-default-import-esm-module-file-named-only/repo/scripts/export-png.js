// Renders the bar chart to a PNG on the server (node, CommonJS): `require` gets the UMD build.
const Plotkit = require("plotkit");
const { createCanvas } = require("canvas");

const canvas = createCanvas(400, 300);
const plot = new Plotkit(canvas, { type: "bar", data: { labels: [], datasets: [] } });
plot.update();
