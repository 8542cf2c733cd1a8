const chokidar = require('./lib/watcher')

require('bundlekit').build({
    entryPoints: ['main.ts'],
    bundle: true,
    outfile: 'dist/main.js',
}).then(() => {
    // we rebuild from our own watcher, not the bundler's watch mode
    chokidar.start({ watch: true, paths: ['src'] })
})
