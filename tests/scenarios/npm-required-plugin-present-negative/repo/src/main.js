import App from './App.sfc'
new App({ el: '#app' })
