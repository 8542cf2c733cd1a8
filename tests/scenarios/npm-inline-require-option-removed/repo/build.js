require('bundlekit').build({
    entryPoints: ['main.ts'],
    bundle: true,
    outfile: 'dist/main.js',
    watch: {
        onRebuild(error, result) {
            if (error) console.error('watch build failed:', error)
            else console.log('watch build succeeded:', result)
        },
    },
}).then(() => {
    console.log('watching...')
})
