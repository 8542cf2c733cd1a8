module.exports = {
    inputFiles: ["./src/"],
    mode: "modules",
    out: "docs",
    exclude: ["./src/**/_*.ts"],
}
