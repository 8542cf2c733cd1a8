/** Polyfills loaded before the app. */
import 'polyshim/es6/symbol';
import 'polyshim/es6/promise';
